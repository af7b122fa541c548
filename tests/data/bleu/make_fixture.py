"""Generates tests/data/bleu/sacrebleu_cases.json with sacreBLEU (tokenize='none')."""
import json, random, sys
import sacrebleu
from sacrebleu.metrics import BLEU

rng = random.Random(20240611)
VOCAB = "the a cat dog sat on mat and ran to house big small red , . is was".split()

def sent(lo, hi):
    return " ".join(rng.choice(VOCAB) for _ in range(rng.randint(lo, hi)))

def perturb(s):
    toks = s.split()
    out = []
    for t in toks:
        r = rng.random()
        if r < 0.15: continue
        if r < 0.3: out.append(rng.choice(VOCAB)); continue
        out.append(t)
        if r > 0.93: out.append(rng.choice(VOCAB))
    return " ".join(out)

def dump(score):
    return dict(score=score.score, precisions=score.precisions, bp=score.bp,
                sys_len=score.sys_len, ref_len=score.ref_len,
                counts=[int(c) for c in score.counts], totals=[int(t) for t in score.totals],
                formatted=score.format())

cases = []
corpus = BLEU(tokenize="none")
sentence = BLEU(tokenize="none", effective_order=True)
# Hand-picked edge cases.
fixed = [
    (["the cat sat on the mat"], ["the cat sat on the mat"]),
    ([""], ["the cat"]),
    (["the cat"], [""]),
    (["a b c d e f g"], ["a b c"]),
    (["the cat sat on a mat"], ["the cat sat on the mat"]),
    (["x y z"], ["a b c"]),
    (["the cat", "on the"], ["the cat sat", "on the mat"]),
    (["  the\tcat\u3000sat\u001fon   "], ["the cat sat on"]),
    (["the the the the"], ["the cat"]),
]
for hyps, refs in fixed:
    cases.append(dict(kind="corpus", hyps=hyps, refs=[refs], **dump(corpus.corpus_score(hyps, [refs]))))
    for h, r in zip(hyps, refs):
        cases.append(dict(kind="sentence", hyps=[h], refs=[[r]], **dump(sentence.sentence_score(h, [r]))))
# Random corpora and sentences.
for i in range(25):
    n = rng.randint(1, 12)
    refs = [sent(0 if i % 7 == 0 else 3, 25) for _ in range(n)]
    hyps = [perturb(r) if rng.random() < 0.9 else sent(0, 12) for r in refs]
    cases.append(dict(kind="corpus", hyps=hyps, refs=[refs], **dump(corpus.corpus_score(hyps, [refs]))))
for i in range(40):
    r = sent(1, 20)
    h = perturb(r) if i % 5 else sent(0, 6)
    cases.append(dict(kind="sentence", hyps=[h], refs=[[r]], **dump(sentence.sentence_score(h, [r]))))
# Several references.
for i in range(10):
    n = rng.randint(1, 10)
    ref_sets = [[sent(2, 15) for _ in range(n)] for _ in range(rng.randint(2, 4))]
    hyps = [perturb(ref_sets[0][j]) for j in range(n)]
    cases.append(dict(kind="corpus", hyps=hyps, refs=ref_sets, **dump(corpus.corpus_score(hyps, ref_sets))))
with open(sys.argv[1], "w", encoding="utf-8") as f:
    head = json.dumps(dict(sacrebleu_version=sacrebleu.__version__, python=sys.version.split()[0]))
    f.write(head[:-1] + ', "cases": [\n')
    f.write(",\n".join(json.dumps(c, ensure_ascii=False) for c in cases))
    f.write("\n]}\n")
print(len(cases), "cases")
