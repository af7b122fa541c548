#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, made from ../shared/data (small
slices, one input per file) and from models the treelink binary trains on a
few sentence pairs. Writes OUT/<target>/ (fuzz/seeds/ by default; not
committed).

    python3 fuzz/seeds.py DATA_DIR TREELINK_BINARY [OUT]
"""
import os
import re
import subprocess
import sys
import tempfile

data, treelink = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, "seeds")
SEP = b"\xff"  # cuts one input into several texts (see fuzz/src/lib.rs)


def read(rel):
    with open(os.path.join(data, rel), "rb") as f:
        return f.read()


def lines(rel):
    return read(rel).split(b"\n")


def put(target, name, content):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(content)


sq = "squoia-de-es/bracketed/dev"
nl = "lingua-align-nl-en-125/bracketed/all"
moses = "lingua-align-nl-en-125/raw/moses"

# Trees: single trees, a few per file, and multi-line Penn files.
for prefix, tag in [(sq, "sq"), (nl, "nl")]:
    for ext in ["src", "trg"]:
        ls = lines(prefix + "." + ext)
        for k in range(0, 12):
            put("trees", f"{tag}-{ext}-{k}", ls[k] + b"\n")
        put("trees", f"{tag}-{ext}-three", b"\n".join(ls[20:23]) + b"\n")
penn = lines("lingua-align-nl-en-125/raw/ep-00-12-15.125.en.penn")
put("trees", "penn", b"\n".join(penn[:40]) + b"\n")

# Corpora: source, target and gold of one to three pairs.
for prefix, tag in [(sq, "sq"), (nl, "nl")]:
    src, trg, gold = (lines(prefix + "." + e) for e in ["src", "trg", "gold"])
    for k in range(0, 16):
        n = 1 + k % 3
        part = lambda ls: b"\n".join(ls[k : k + n]) + b"\n"
        put("corpus", f"{tag}-{k}", part(src) + SEP + part(trg) + SEP + part(gold))

# Moses lexical tables and word alignments: slices.
for name in ["lex.0-0.e2f", "lex.0-0.f2e"]:
    ls = lines(f"{moses}/{name}")
    for k in range(0, 8):
        start = k * len(ls) // 8
        put("moses_lex", f"{name}-{k}", b"\n".join(ls[start : start + 25]) + b"\n")
for name in ["aligned.grow-diag", "aligned.intersect"]:
    ls = lines(f"{moses}/{name}")
    for k in range(0, 8):
        put("word_alignments", f"{name}-{k}", b"\n".join(ls[k * 10 : k * 10 + 4]) + b"\n")

# Everything else comes from the binary, on a few pairs.
tmp = tempfile.mkdtemp(prefix="treelink-seeds-")


def run(*args):
    subprocess.run([treelink, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def small_prefix(name, prefix, first, n):
    for ext in ["src", "trg", "gold"]:
        with open(os.path.join(tmp, f"{name}.{ext}"), "wb") as f:
            f.write(b"\n".join(lines(f"{prefix}.{ext}")[first : first + n]) + b"\n")
    return os.path.join(tmp, name)


few = small_prefix("few", sq, 0, 12)
other = small_prefix("other", nl, 0, 12)

for order in [1, 2, 3]:
    arpa = os.path.join(tmp, f"lm{order}.arpa")
    run("lm", "--train", few + ".trg", "--order", str(order), "-o", arpa)
    with open(arpa, "rb") as f:
        put("arpa", f"order{order}", f.read())

# Moses tables small enough to sit in a model file.
for name in ["lex.0-0.e2f", "lex.0-0.f2e"]:
    with open(os.path.join(tmp, name), "wb") as f:
        f.write(b"\n".join(lines(f"{moses}/{name}")[:60]) + b"\n")
for k, (prefix, kernel, extra) in enumerate(
    [
        (few, "lex", []),
        (few, "plain+dbtk-root+ibtk-rgsst", []),
        (few, "plain+ibtk-sst+dbtk-rdsst", []),
        (other, "plain+ibtk-rgsst", ["--lex-s2t", os.path.join(tmp, "lex.0-0.e2f"), "--lex-t2s", os.path.join(tmp, "lex.0-0.f2e")]),
    ]
):
    model = os.path.join(tmp, f"model{k}.json")
    run("train", "--train", prefix, "--kernel", kernel, "--max-examples", "30", *extra, "-o", model)
    with open(model, "rb") as f:
        put("alignment_model", f"model{k}", f.read())

# The translation models from the four shortest pairs, so a seed stays small.
sq_src = lines(sq + ".src")
shortest = sorted(range(len(sq_src) - 1), key=lambda k: len(sq_src[k]))[:4]
for ext in ["src", "trg", "gold"]:
    ls = lines(f"{sq}.{ext}")
    with open(os.path.join(tmp, f"tiny.{ext}"), "wb") as f:
        f.write(b"\n".join(ls[k] for k in shortest) + b"\n")
tiny = os.path.join(tmp, "tiny")
for system in ["phrase", "ms"]:
    mt = os.path.join(tmp, f"{system}.json")
    run("mt-train", "--train", tiny, "--system", system, "--tune-iterations", "0", "--lm-order", "2", "-o", mt)
    with open(mt, "rb") as f:
        put("mt_model", system, f.read())
    # The binary form too (`mt-convert`): the reader the page uses for .tlmt files.
    tlmt = os.path.join(tmp, f"{system}.tlmt")
    run("mt-convert", mt, tlmt)
    with open(tlmt, "rb") as f:
        put("mt_model", f"{system}-tlmt", f.read())

# Exercises and answers (exercise file, 0xFF, answers file), made and
# answered by the binary.
for k, pairs in enumerate(["1", "2,3", "5,1,4"]):
    ex = os.path.join(tmp, f"ex{k}.json")
    run("exercise", "new", "--corpus", few, "--pairs", pairs, "--title", f"Exercise {k}", "--instructions", "Link the phrases.", "-o", ex)
    gold = lines(few + ".gold")
    links = os.path.join(tmp, f"ex{k}.links")
    with open(links, "wb") as f:
        f.write(b"\n".join(gold[int(n) - 1] for n in pairs.split(",")) + b"\n")
    answers = os.path.join(tmp, f"ex{k}.answers.json")
    run("exercise", "answer", ex, links, "--student", f"Student {k}", "-o", answers)
    with open(ex, "rb") as f, open(answers, "rb") as g:
        put("exercise", f"ex{k}", f.read() + SEP + g.read())

# TigerXML + STA: the sentences of the first aligned sentence pairs, with
# their aligns, without the treebanks' long <head>.
def sentences(xml):
    return {m.group(1): m.group(0) for m in re.finditer(rb'<s id="([^"]+)".*?</s>', xml, re.S)}


def tiger_of(xml, keep):
    ss = sentences(xml)
    body = b"\n".join(ss[s] for s in keep if s in ss)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n<corpus id="c">\n<body>\n' + body + b"\n</body>\n</corpus>\n"


def tiger_seeds(tag, de_file, en_file, sta_file, de_id, en_id):
    de, en, sta = read(de_file), read(en_file), read(sta_file)
    head = re.search(rb"<treebanks>.*?</treebanks>", sta, re.S).group(0)
    aligns = re.findall(rb"<align .*?</align>", sta, re.S)

    def sent(node):
        return node.rsplit(b"_", 1)[0]

    pairs = []
    for a in aligns:
        nodes = dict(re.findall(rb'treebank_id="([^"]+)" node_id="([^"]+)"', a))
        p = (sent(nodes.get(de_id, b"")), sent(nodes.get(en_id, b"")))
        if p not in pairs:
            pairs.append(p)
    for k in range(0, 4):
        keep = pairs[k : k + 1 + k % 2]
        ds, es = {d for d, _ in keep}, {e for _, e in keep}
        kept = [
            a for a in aligns
            if all(sent(n) in (ds if t == de_id else es) for t, n in re.findall(rb'treebank_id="([^"]+)" node_id="([^"]+)"', a))
        ]
        sta_text = b'<?xml version="1.0" encoding="UTF-8"?>\n<treealign>\n<head>\n' + head + b"\n</head>\n<alignments>\n" + b"\n".join(kept) + b"\n</alignments>\n</treealign>\n"
        de_text = tiger_of(de, sorted(ds))
        en_text = tiger_of(en, sorted(es))
        put("tiger", f"{tag}-{k}", de_text + SEP + en_text + SEP + sta_text)


raw = "squoia-de-es/raw"
tiger_seeds("ahk", f"{raw}/AHK_SQUOIA_DE.xml", f"{raw}/AHK_SQUOIA_ES.xml", f"{raw}/AHK_alignments_squoia_de_es.xml", b"de", b"es")
nlraw = "lingua-align-nl-en-125/raw"
tiger_seeds("nl", f"{nlraw}/ep-00-12-15.125.nl.tiger", f"{nlraw}/ep-00-12-15.125.en.tiger", f"{nlraw}/nl-en_125.xml", b"nl", b"en")

# Page<->worker messages (serde's external tagging), with small files inside.
import json

def corpus_text(prefix, first, n):
    return {e: b"\n".join(lines(f"{prefix}.{x}")[first : first + n]).decode() + "\n" for e, x in [("source", "src"), ("target", "trg"), ("gold", "gold")]}

def seed_file(target, name):
    with open(os.path.join(out, target, name), "rb") as f:
        return f.read().decode()

lex = {"s2t": None, "t2s": None, "word_links": None}
with_tables = {
    "s2t": {"name": "lex.e2f", "text": b"\n".join(lines(f"{moses}/lex.0-0.e2f")[:30]).decode() + "\n"},
    "t2s": {"name": "lex.f2e", "text": b"\n".join(lines(f"{moses}/lex.0-0.f2e")[:30]).decode() + "\n"},
    "word_links": {"name": "aligned", "text": b"\n".join(lines(f"{moses}/aligned.grow-diag")[:2]).decode() + "\n"},
}
messages = {
    "align-sq": {"Align": {"job": 1, "corpus": corpus_text(sq, 0, 2), "model": seed_file("alignment_model", "model0"), "lexicon": lex}},
    "align-nl": {"Align": {"job": 2, "corpus": corpus_text(nl, 0, 2), "model": seed_file("alignment_model", "model3"), "lexicon": with_tables}},
    "explain": {"Explain": {"pair": 0, "source": 3, "target": 2}},
    "train-mt": {"TrainMt": {"job": 3, "corpus": corpus_text(sq, 2, 2), "system": "ms", "extract": "dirc", "lm": {"name": "lm.arpa", "text": seed_file("arpa", "order2")}}},
    "load-mt": {"LoadMt": {"job": 4, "model": {"name": "mt.json", "text": seed_file("mt_model", "phrase")}}},
    "load-mt-file": {"LoadMtFile": {"job": 5, "name": "mt.json"}},
    "translate": {"Translate": {"job": 6, "model": 4, "source": lines(sq + ".src")[0].decode(), "nbest": 3}},
    "translate-all": {"TranslateAll": {"job": 7, "model": 4, "sources": [l.decode() for l in lines(sq + ".src")[:3]]}},
    "ready": "Ready",
    "progress": {"Progress": {"job": 1, "stage": "SVM (SMO)", "done": 3, "total": 10, "gap": [0.5, 0.001]}},
    "failed": {"Failed": {"job": 0, "message": "the worker failed"}},
    "mt-missing": {"MtMissing": {"job": 4}},
}
for name, message in messages.items():
    put("protocol", name, json.dumps(message).encode())

# SVM-Light-TK: the repository's test models, each with examples.
tests_data = os.path.join(here, "..", "tests", "data")
def test_file(name):
    with open(os.path.join(tests_data, name), "rb") as f:
        return f.read()
for model in ["svm-light-tk-st.model", "svm-light-tk-sst.model"]:
    for examples in ["svm-light-tk-train.dat", "svm-light-tk-test.dat"]:
        put("svm_light_tk", f"{model}-{examples}", test_file(model) + SEP + test_file(examples))

# GIZA++'s files: vocabularies and a numeric t-table made from the words of a
# slice of the A3.final files (and of lex.0-0.e2f), then the A3 slices.
import gzip

for k, name in enumerate(["src-trg.A3.final.gz", "trg-src.A3.final.gz"]):
    a3 = gzip.decompress(read(f"{moses}/{name}")).split(b"\n")
    part = a3[k * 30 : k * 30 + 3 * (1 + k)]
    target_words = sorted({w for l in part[1::3] for w in l.split()})
    source_words = sorted({w for l in part[2::3] for w in re.findall(rb"(\S+) \(\{", l) if w != b"NULL"})
    vcb = lambda words: b"".join(b"%d %s 1\n" % (i + 2, w) for i, w in enumerate(words))
    ids = lambda words: {w: i + 2 for i, w in enumerate(words)}
    si, ti = ids(source_words), ids(target_words)
    table = b"".join(b"%d %d 0.5\n" % (si[s], ti[t]) for s in source_words[:8] for t in target_words[:3])
    put("giza", f"a3-{k}", vcb(source_words) + SEP + vcb(target_words) + SEP + b"0 2 0.1\n" + table + SEP + b"\n".join(part) + b"\n")

# Dublin: one to three pairs (four lines each) of the nl-en file, in UTF-8.
dublin = read("lingua-align-nl-en-125/raw/nl-en_125.dublin").decode("latin-1").encode().split(b"\n")
for k in range(0, 8):
    n = 1 + k % 3
    put("dublin", f"nl-en-{k}", b"\n".join(dublin[4 * k * 5 : 4 * k * 5 + 4 * n]) + b"\n")

# PREFIX.ids: slices of the shared data's (version 1), and of an import's (version 2).
for k in range(0, 4):
    put("ids", f"v1-{k}", b"\n".join(lines(nl + ".ids")[k * 10 : k * 10 + 3]) + b"\n")
imported = os.path.join(tmp, "imported")
run("import", "tiger", "--reverse", "--source", os.path.join(data, nlraw, "ep-00-12-15.125.nl.tiger"), "--target",
    os.path.join(data, nlraw, "ep-00-12-15.125.en.tiger"), "--alignment", os.path.join(data, nlraw, "nl-en_125.xml"), "-o", imported)
with open(imported + ".ids", "rb") as f:
    v2 = f.read().split(b"\n")
for k in range(0, 4):
    put("ids", f"v2-{k}", b"\n".join(v2[:4] + v2[4 + k * 10 : 4 + k * 10 + 2]) + b"\n")

# Bytes to decode: UTF-8, gzip, and a TigerXML slice declared ISO-8859-1 (re-encoded so).
for k, text in enumerate([lines(sq + ".src")[0], read(f"{nlraw}/nl-en_125.xml")[:2000]]):
    put("decode", f"utf8-{k}", text)
    put("decode", f"gzip-{k}", gzip.compress(text, mtime=0))
latin = read(f"{raw}/LAI_SQUOIA_DE.xml")[:3000].decode("utf-8", "ignore")
latin = latin.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').encode("latin-1", "replace")
put("decode", "latin1", latin)
put("decode", "latin1-gzip", gzip.compress(latin, mtime=0))

for target in sorted(os.listdir(out)):
    files = os.listdir(os.path.join(out, target))
    size = sum(os.path.getsize(os.path.join(out, target, f)) for f in files)
    print(f"seeds: {target}: {len(files)} inputs, {size // 1024} KB", file=sys.stderr)
