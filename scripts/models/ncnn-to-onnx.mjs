// Converts an ncnn model (a .param text file and a .bin weights file) to an ONNX model. It knows
// exactly the layers and options of the waifu2x models (CUnet, upconv_7) and refuses anything else,
// so a model with a new layer or option fails the build instead of producing a wrong graph.
//
// The contract of the ONNX model: input `input` float32 [N, 3, H, W] RGB 0..255, output `output`
// [N, 3, H', W'] RGB 0..255 (not clamped). The ncnn network wants 0..1: the scaling is in the graph.
// The network's convolutions are unpadded, so its output is smaller than scale x input: the caller
// feeds a window with `context` pixels of border on each side (edge-replicated at the image's
// edges) and gets exactly scale x the inner part back. analyseNcnnModel finds scale, context and
// the size multiple the inner part must have (strided layers need even sizes).
// ncnn's formats: https://github.com/Tencent/ncnn/wiki/param-and-model-file-structure
import { readFileSync } from 'node:fs';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const OPSET = 13;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const FLOAT_ATTR = onnx.AttributeProto.AttributeType.FLOAT;
const INTS = onnx.AttributeProto.AttributeType.INTS;
const PARAM_MAGIC = 7767517;
/** ModelBin tags: float16 weights, and plain float32 (all four flag bytes zero). */
const TAG_FLOAT16 = 0x01306b47;

/**
 * Parses a .param file: `type name bottomCount topCount bottoms... tops... key=value...`.
 * Keys below -23300 hold arrays (`-23310=1,0.1` is key 10, one value). Returns the layers in order.
 */
export function parseNcnnParam(text) {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (Number(lines[0]) !== PARAM_MAGIC) throw new Error(`not an ncnn param file (magic ${lines[0]}, expected ${PARAM_MAGIC})`);
  const [layerCount] = lines[1].split(/\s+/).map(Number);
  const layers = lines.slice(2).map((line) => {
    const [type, name, bottomCount, topCount, ...rest] = line.split(/\s+/);
    const nb = Number(bottomCount);
    const nt = Number(topCount);
    const bottoms = rest.slice(0, nb);
    const tops = rest.slice(nb, nb + nt);
    const params = new Map();
    for (const pair of rest.slice(nb + nt)) {
      const [key, value] = pair.split('=');
      const id = Number(key);
      if (id <= -23300) {
        const [count, ...values] = value.split(',').map(Number);
        if (values.length !== count) throw new Error(`layer ${name}: array ${key} says ${count} values, has ${values.length}`);
        params.set(-id - 23300, values);
      } else {
        params.set(id, Number(value));
      }
    }
    return { type, name, bottoms, tops, params };
  });
  if (layers.length !== layerCount) throw new Error(`param file says ${layerCount} layers, has ${layers.length}`);
  return layers;
}

/** IEEE 754 half -> float. */
function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** Reads weights in the order ncnn's ModelBin does: `flagged` arrays carry a 4-byte tag, others are raw float32. */
function weightReader(bin) {
  let offset = 0;
  const view = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const need = (bytes) => {
    if (offset + bytes > bin.length) throw new Error(`weights file too short: needs ${offset + bytes} bytes, has ${bin.length}`);
  };
  const float32 = (count) => {
    need(count * 4);
    const values = new Float32Array(count);
    for (let i = 0; i < count; i++) values[i] = view.getFloat32(offset + i * 4, true);
    offset += count * 4;
    return values;
  };
  return {
    flagged(count) {
      need(4);
      const tag = view.getUint32(offset, true);
      offset += 4;
      if (tag === TAG_FLOAT16) {
        need(count * 2);
        const values = new Float32Array(count);
        for (let i = 0; i < count; i++) values[i] = halfToFloat(view.getUint16(offset + i * 2, true));
        offset += Math.ceil((count * 2) / 4) * 4;
        return values;
      }
      if (tag === 0) return float32(count);
      throw new Error(`weights stored with tag 0x${tag.toString(16)} (int8 or quantized): only float16 and float32 are converted`);
    },
    raw: float32,
    get left() {
      return bin.length - offset;
    },
  };
}

/** Reads a .param and .bin pair. */
export function readNcnnModel(paramPath, binPath) {
  return { layers: parseNcnnParam(readFileSync(paramPath, 'utf8')), bin: readFileSync(binPath) };
}

// The options each layer type may carry; any other key fails the conversion.
const KNOWN_KEYS = {
  Input: [0, 1, 2],
  Convolution: [0, 1, 11, 2, 12, 3, 13, 4, 15, 14, 16, 5, 6, 9, 10],
  Deconvolution: [0, 1, 11, 2, 12, 3, 13, 4, 15, 14, 16, 5, 6, 9, 10],
  InnerProduct: [0, 1, 2, 9, 10],
  Pooling: [0, 4],
  Scale: [0],
  Crop: [0, 1],
  Eltwise: [0],
  Split: [],
};

/** A layer's window geometry, with ncnn's defaults (height from width, right from left, ...). */
function geometry(p) {
  const kw = p.get(1) ?? 0;
  const dw = p.get(2) ?? 1;
  const sw = p.get(3) ?? 1;
  const left = p.get(4) ?? 0;
  const top = p.get(14) ?? left;
  return {
    kernel: [p.get(11) ?? kw, kw],
    dilation: [p.get(12) ?? dw, dw],
    stride: [p.get(13) ?? sw, sw],
    // ONNX order: [top, left, bottom, right]
    pads: [top, left, p.get(16) ?? top, p.get(15) ?? left],
  };
}

/**
 * Walks the network for a concrete input size: each blob's [channels, height, width]. Throws on
 * anything the conversion does not support; returns null for a size the network cannot take
 * cleanly (a strided layer that would drop a row, a crop larger than its input).
 */
function walk(layers, height, width) {
  const shapes = new Map();
  for (const layer of layers) {
    const fail = (why) => {
      throw new Error(`layer ${layer.name} (${layer.type}): unsupported ${why}`);
    };
    const known = KNOWN_KEYS[layer.type];
    if (!known) fail(`layer type: scripts/models/ncnn-to-onnx.mjs converts only ${Object.keys(KNOWN_KEYS).join(', ')}`);
    for (const key of layer.params.keys()) if (!known.includes(key)) fail(`option ${key}=${layer.params.get(key)}`);
    const p = layer.params;
    const inputs = layer.bottoms.map((blob) => {
      if (!shapes.has(blob)) fail(`input blob ${blob} (not produced before)`);
      return shapes.get(blob);
    });
    const expect = (count) => {
      if (inputs.length !== count) fail(`${inputs.length} inputs`);
    };
    if (layer.type !== 'Split' && layer.tops.length !== 1) fail(`${layer.tops.length} outputs`);
    let out;
    switch (layer.type) {
      case 'Input':
        if ((p.get(2) ?? 0) !== 3) fail(`input of ${p.get(2)} channels: expected RGB`);
        out = [3, height, width];
        break;
      case 'Convolution': {
        expect(1);
        const [c, h, w] = inputs[0];
        const { kernel, dilation, stride, pads } = geometry(p);
        if (pads.some((pad) => pad < 0)) fail(`automatic padding ${pads}`);
        if ((p.get(6) ?? 0) !== p.get(0) * c * kernel[0] * kernel[1]) fail(`weight size ${p.get(6)} for ${p.get(0)}x${c}x${kernel}`);
        const span = [h + pads[0] + pads[2] - ((kernel[0] - 1) * dilation[0] + 1), w + pads[1] + pads[3] - ((kernel[1] - 1) * dilation[1] + 1)];
        if (span[0] < 0 || span[1] < 0 || span[0] % stride[0] || span[1] % stride[1]) return null;
        out = [p.get(0), span[0] / stride[0] + 1, span[1] / stride[1] + 1];
        break;
      }
      case 'Deconvolution': {
        expect(1);
        const [c, h, w] = inputs[0];
        const { kernel, dilation, stride, pads } = geometry(p);
        if (pads.some((pad) => pad < 0)) fail(`automatic padding ${pads}`);
        if ((p.get(6) ?? 0) !== p.get(0) * c * kernel[0] * kernel[1]) fail(`weight size ${p.get(6)} for ${p.get(0)}x${c}x${kernel}`);
        out = [p.get(0), (h - 1) * stride[0] + (kernel[0] - 1) * dilation[0] + 1 - pads[0] - pads[2], (w - 1) * stride[1] + (kernel[1] - 1) * dilation[1] + 1 - pads[1] - pads[3]];
        break;
      }
      case 'Pooling':
        expect(1);
        if (p.get(4) !== 1) fail('pooling that is not global');
        if (![0, 1].includes(p.get(0) ?? 0)) fail(`pooling type ${p.get(0)}`);
        out = [inputs[0][0], 1, 1];
        break;
      case 'InnerProduct': {
        expect(1);
        const [c, h, w] = inputs[0];
        // After a global pooling: a 1x1 convolution keeps the [N, C, 1, 1] shape the Scale broadcasts.
        if (h !== 1 || w !== 1) fail(`input of ${h}x${w}: only after a global pooling`);
        if (p.get(2) !== p.get(0) * c) fail(`weight size ${p.get(2)} for ${p.get(0)}x${c}`);
        out = [p.get(0), 1, 1];
        break;
      }
      case 'Scale':
        expect(2);
        if (p.get(0) !== -233) fail('scale with stored weights (only the two-input form)');
        if (inputs[1][0] !== inputs[0][0] || inputs[1][1] !== 1 || inputs[1][2] !== 1) fail(`scale of ${inputs[1]} for ${inputs[0]}`);
        out = inputs[0];
        break;
      case 'Crop': {
        expect(2);
        const [[c, h, w], [rc, rh, rw]] = inputs;
        const [x, y] = [p.get(0) ?? 0, p.get(1) ?? 0];
        if (rc !== c) fail(`crop of ${c} channels to a reference of ${rc}`);
        if (x < 0 || y < 0) fail(`offset ${x},${y}`);
        if (y + rh > h || x + rw > w) return null;
        out = [c, rh, rw];
        break;
      }
      case 'Eltwise':
        if (inputs.length < 2) fail(`${inputs.length} inputs`);
        if (![0, 1, 2].includes(p.get(0) ?? 0)) fail(`operation ${p.get(0)}`);
        if (inputs.some((shape) => shape.join() !== inputs[0].join())) return null;
        out = inputs[0];
        break;
      case 'Split':
        expect(1);
        out = inputs[0];
        break;
    }
    for (const top of layer.tops) shapes.set(top, out);
  }
  return shapes;
}

/** The blob no layer reads: the network's output. */
function outputBlob(layers) {
  const read = new Set(layers.flatMap((layer) => layer.bottoms));
  const outputs = layers.flatMap((layer) => layer.tops).filter((blob) => !read.has(blob));
  if (outputs.length !== 1) throw new Error(`expected one output blob, found ${outputs.join(', ') || 'none'}`);
  return outputs[0];
}

/**
 * The network's geometry, found by walking it over a range of square sizes: output = scale x
 * (input - 2 x context), for inputs whose inner part (input - 2 x context) is a multiple of `multiple`.
 */
export function analyseNcnnModel(layers) {
  const output = outputBlob(layers);
  const fits = [];
  for (let size = 48; size < 112; size++) {
    const shapes = walk(layers, size, size);
    if (shapes) fits.push({ size, out: shapes.get(output) });
  }
  if (fits.length < 2) throw new Error('the network takes no input size between 48 and 112');
  const [first, second] = fits;
  const scale = (second.out[1] - first.out[1]) / (second.size - first.size);
  const context = (scale * first.size - first.out[1]) / (2 * scale);
  const multiple = second.size - first.size;
  const consistent = fits.every(({ size, out }) => out[0] === 3 && out[1] === out[2] && out[1] === scale * (size - 2 * context) && (size - first.size) % multiple === 0);
  if (!Number.isInteger(scale) || scale < 1 || !Number.isInteger(context) || context < 0 || !consistent) {
    throw new Error(`the network's output is not scale x (input - 2 x context): ${fits.map(({ size, out }) => `${size}->${out[1]}`).join(' ')}`);
  }
  if ((first.size - 2 * context) % multiple !== 0) throw new Error(`inputs of ${first.size} + k x ${multiple} fit, which is not context + a multiple of ${multiple}`);
  return { scale, context, multiple };
}

function floatTensor(name, dims, values) {
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) });
}

function int64Tensor(name, values) {
  const data = BigInt64Array.from(values.map(BigInt));
  return onnx.TensorProto.create({ name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) });
}

/** ncnn Deconvolution weights are [out, in, kh, kw]; ONNX ConvTranspose wants [in, out, kh, kw]. */
function transposeOutIn(values, out, inputs, k) {
  const result = new Float32Array(values.length);
  for (let o = 0; o < out; o++) for (let i = 0; i < inputs; i++) result.set(values.subarray((o * inputs + i) * k, (o * inputs + i + 1) * k), (i * out + o) * k);
  return result;
}

/**
 * Builds the ONNX model of an ncnn model read by readNcnnModel. Returns the serialized ModelProto
 * and the geometry from analyseNcnnModel.
 */
export function convertNcnnModel({ layers, bin }, { name, docString = '', metadata = {} }) {
  const geometryFound = analyseNcnnModel(layers);
  const shapes = walk(layers, 64 + 2 * geometryFound.context, 64 + 2 * geometryFound.context);
  const weights = weightReader(bin);
  const nodes = [];
  const initializers = [];
  const tensorOf = new Map(); // ncnn blob -> ONNX tensor
  let counter = 0;
  const node = (opType, inputs, attribute = [], output = `t${counter}`) => {
    nodes.push(onnx.NodeProto.create({ name: `${opType}_${counter++}`, opType, input: inputs, output: [output], attribute }));
    return output;
  };
  const constant = (tensorName, dims, values) => {
    initializers.push(floatTensor(tensorName, dims, values));
    return tensorName;
  };
  const ints = (tensorName, values) => {
    initializers.push(int64Tensor(tensorName, values));
    return tensorName;
  };
  const activation = (layer, input) => {
    const type = layer.params.get(9) ?? 0;
    const args = layer.params.get(10) ?? [];
    switch (type) {
      case 0:
        return input;
      case 1:
        return node('Relu', [input]);
      case 2:
        return node('LeakyRelu', [input], [{ name: 'alpha', type: FLOAT_ATTR, f: args[0] ?? 0 }]);
      case 4:
        return node('Sigmoid', [input]);
      default:
        throw new Error(`layer ${layer.name} (${layer.type}): unsupported activation ${type}`);
    }
  };

  for (const layer of layers) {
    const p = layer.params;
    const inputs = layer.bottoms.map((blob) => tensorOf.get(blob));
    let out;
    switch (layer.type) {
      case 'Input':
        out = node('Mul', ['input', constant('to_unit', [], new Float32Array([1 / 255]))]);
        break;
      case 'Convolution':
      case 'Deconvolution': {
        const { kernel, dilation, stride, pads } = geometry(p);
        const channels = shapes.get(layer.bottoms[0])[0];
        const k = kernel[0] * kernel[1];
        let w = weights.flagged(p.get(6));
        if (layer.type === 'Deconvolution') w = transposeOutIn(w, p.get(0), channels, k);
        const dims = layer.type === 'Deconvolution' ? [channels, p.get(0), ...kernel] : [p.get(0), channels, ...kernel];
        const args = [inputs[0], constant(`${layer.name}/weight`, dims, w)];
        if (p.get(5)) args.push(constant(`${layer.name}/bias`, [p.get(0)], weights.raw(p.get(0))));
        const attributes = [
          { name: 'kernel_shape', type: INTS, ints: kernel },
          { name: 'strides', type: INTS, ints: stride },
          { name: 'dilations', type: INTS, ints: dilation },
          { name: 'pads', type: INTS, ints: pads },
        ];
        out = activation(layer, node(layer.type === 'Deconvolution' ? 'ConvTranspose' : 'Conv', args, attributes));
        break;
      }
      case 'InnerProduct': {
        const channels = shapes.get(layer.bottoms[0])[0];
        const args = [inputs[0], constant(`${layer.name}/weight`, [p.get(0), channels, 1, 1], weights.flagged(p.get(2)))];
        if (p.get(1)) args.push(constant(`${layer.name}/bias`, [p.get(0)], weights.raw(p.get(0))));
        out = activation(layer, node('Conv', args, [{ name: 'kernel_shape', type: INTS, ints: [1, 1] }]));
        break;
      }
      case 'Pooling':
        out = node((p.get(0) ?? 0) === 0 ? 'GlobalMaxPool' : 'GlobalAveragePool', inputs);
        break;
      case 'Scale':
        out = node('Mul', inputs);
        break;
      case 'Crop': {
        // The first input cut to the reference's height and width, from the offset: the ends follow the
        // reference's runtime shape, so the model takes any input size that fits.
        const offset = [p.get(1) ?? 0, p.get(0) ?? 0];
        const starts = ints(`${layer.name}/starts`, offset);
        const axes = ints(`${layer.name}/axes`, [2, 3]);
        const referenceSize = node('Slice', [node('Shape', [inputs[1]]), ints(`${layer.name}/hw_from`, [2]), ints(`${layer.name}/hw_to`, [4])]);
        const ends = node('Add', [referenceSize, starts]);
        out = node('Slice', [inputs[0], starts, ends, axes]);
        break;
      }
      case 'Eltwise': {
        const op = ['Mul', 'Add', 'Max'][p.get(0) ?? 0];
        out = inputs.slice(1).reduce((sum, next) => node(op, [sum, next]), inputs[0]);
        break;
      }
      case 'Split':
        for (const top of layer.tops) tensorOf.set(top, inputs[0]);
        continue;
    }
    tensorOf.set(layer.tops[0], out);
  }
  if (weights.left !== 0) throw new Error(`${weights.left} bytes of weights left over: the layers read less than the file holds`);
  nodes.push(onnx.NodeProto.create({ name: 'to_bytes', opType: 'Mul', input: [tensorOf.get(outputBlob(layers)), constant('from_unit', [], new Float32Array([255]))], output: ['output'] }));

  const image = (dims) =>
    onnx.TypeProto.create({ tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } });
  const graph = onnx.GraphProto.create({
    name,
    node: nodes,
    initializer: initializers,
    input: [onnx.ValueInfoProto.create({ name: 'input', type: image(['batch', 3, 'height', 'width']) })],
    output: [onnx.ValueInfoProto.create({ name: 'output', type: image(['batch', 3, 'out_height', 'out_width']) })],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'level-guides scripts/build-models.mjs',
    docString,
    metadataProps: Object.entries({ ...metadata, ...geometryFound }).map(([key, value]) => ({ key, value: String(value) })),
    graph,
  });
  return { bytes: onnx.ModelProto.encode(model).finish(), geometry: geometryFound };
}
