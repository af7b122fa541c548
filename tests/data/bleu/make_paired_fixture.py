"""Generates tests/data/bleu/paired/sacrebleu_paired_bs.json: what sacreBLEU's
paired bootstrap test (`--paired-bs`, 1000 resamples, tokenize none) gives
for paired/phrase.hyp (baseline) and paired/ms.hyp against paired/ref.txt,
once per seed 1..30 (SACREBLEU_SEED), so that the test can compare the
distributions of its mean, confidence interval and p-value with ours."""
import json, os, subprocess, sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "paired")
runs = []
for seed in range(1, 31):
    env = dict(os.environ, SACREBLEU_SEED=str(seed))
    out = subprocess.run(
        [sys.executable, "-m", "sacrebleu", os.path.join(here, "ref.txt"),
         "-i", os.path.join(here, "phrase.hyp"), os.path.join(here, "ms.hyp"),
         "--tokenize", "none", "--paired-bs", "-m", "bleu"],
        env=env, check=True, capture_output=True, text=True).stdout
    systems = json.loads(out)
    runs.append({"seed": seed, "systems": [s["BLEU"] for s in systems]})
json.dump({"sacrebleu": __import__("sacrebleu").__version__, "runs": runs},
          open(sys.argv[1], "w"), indent=1)
