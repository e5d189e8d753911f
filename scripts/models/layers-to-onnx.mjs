// Converts a TensorFlow.js layers model (Keras functional topology + weights) to an ONNX model.
// It knows exactly the layers of the UpscalerJS ESRGAN/RDN models and refuses anything else, so a
// new model version with a new layer fails the build instead of producing a wrong graph.
// The graph is NCHW: input `input` float32 [N, 3, H, W], output `output` [N, 3, H*s, W*s].
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const OPSET = 13;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT = onnx.AttributeProto.AttributeType.INT;
const INTS = onnx.AttributeProto.AttributeType.INTS;
const STRING = onnx.AttributeProto.AttributeType.STRING;
/** Keras channels-last axis -> the same axis in NCHW. */
const NHWC_TO_NCHW_AXIS = [0, 2, 3, 1];

/** Reads model.json and its weight shards; returns the topology and each weight by name. */
export function readLayersModel(dir) {
  const modelJson = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
  if (modelJson.format !== 'layers-model') throw new Error(`${dir}/model.json: format ${modelJson.format}, expected layers-model`);
  const weights = new Map();
  for (const group of modelJson.weightsManifest) {
    const bytes = Buffer.concat(group.paths.map((path) => readFileSync(join(dir, path))));
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.dtype !== 'float32' || spec.quantization) {
        throw new Error(`${dir}: weight ${spec.name} is ${spec.quantization ? 'quantized' : spec.dtype}; only plain float32 is converted`);
      }
      const size = spec.shape.reduce((a, b) => a * b, 1);
      const values = new Float32Array(size);
      // Copy through a DataView: shard offsets need not be 4-byte aligned in memory.
      const view = new DataView(bytes.buffer, bytes.byteOffset + offset, size * 4);
      for (let i = 0; i < size; i++) values[i] = view.getFloat32(i * 4, true);
      weights.set(spec.name, { shape: spec.shape, values });
      offset += size * 4;
    }
    if (offset !== bytes.length) throw new Error(`${dir}: ${bytes.length - offset} bytes of weights left over`);
  }
  return { modelJson, weights };
}

const attr = {
  int: (name, i) => ({ name, type: INT, i }),
  ints: (name, ints) => ({ name, type: INTS, ints }),
  string: (name, s) => ({ name, type: STRING, s: Buffer.from(s) }),
};

function floatTensor(name, dims, values) {
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) });
}

/** TF kernel [kh, kw, in, out] -> ONNX Conv weight [out, in, kh, kw]. */
function convKernel({ shape: [kh, kw, cin, cout], values }) {
  const out = new Float32Array(values.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < cin; i++)
        for (let o = 0; o < cout; o++) out[((o * cin + i) * kh + y) * kw + x] = values[((y * kw + x) * cin + i) * cout + o];
  return { dims: [cout, cin, kh, kw], values: out };
}

/** Keras 'same' pads the extra pixel of an even kernel at the end, as ONNX's explicit pads can. */
function samePads([kh, kw]) {
  return [Math.floor((kh - 1) / 2), Math.floor((kw - 1) / 2), Math.ceil((kh - 1) / 2), Math.ceil((kw - 1) / 2)];
}

const ACTIVATIONS = { linear: null, relu: 'Relu' };

/**
 * Each converter gets the layer, its input tensor names and helpers; it adds nodes and returns
 * the name of the tensor the layer outputs.
 */
const LAYERS = {
  Conv2D(layer, [input], { weight, node, initializer, fail }) {
    const c = layer.config;
    if (c.data_format !== 'channels_last') fail(`data_format ${c.data_format}`);
    if (c.groups !== undefined && c.groups !== 1) fail(`groups ${c.groups}`);
    if (!['same', 'valid'].includes(c.padding)) fail(`padding ${c.padding}`);
    if (!(c.activation in ACTIVATIONS)) fail(`activation ${c.activation}`);
    const kernel = weight(`${layer.name}/kernel`);
    if (kernel.shape[3] !== c.filters || kernel.shape[0] !== c.kernel_size[0] || kernel.shape[1] !== c.kernel_size[1]) {
      fail(`kernel shape ${kernel.shape} for ${c.filters} filters of ${c.kernel_size}`);
    }
    const w = convKernel(kernel);
    const inputs = [input, initializer(`${layer.name}/kernel`, w.dims, w.values)];
    if (c.use_bias) {
      const bias = weight(`${layer.name}/bias`);
      inputs.push(initializer(`${layer.name}/bias`, bias.shape, bias.values));
    }
    const pads = c.padding === 'same' ? samePads(c.kernel_size) : [0, 0, 0, 0];
    const attributes = [attr.ints('kernel_shape', c.kernel_size), attr.ints('strides', c.strides), attr.ints('dilations', c.dilation_rate), attr.ints('pads', pads)];
    const conv = node('Conv', inputs, attributes);
    return ACTIVATIONS[c.activation] ? node(ACTIVATIONS[c.activation], [conv], [], `${layer.name}_activation`) : conv;
  },
  Activation(layer, [input], { node, fail }) {
    const op = ACTIVATIONS[layer.config.activation];
    if (op === undefined) fail(`activation ${layer.config.activation}`);
    return op ? node(op, [input]) : input;
  },
  Add(layer, inputs, { node, fail }) {
    if (inputs.length < 2) fail(`${inputs.length} inputs`);
    return inputs.slice(1).reduce((sum, next, i) => node('Add', [sum, next], [], i === inputs.length - 2 ? layer.name : `${layer.name}_${i}`), inputs[0]);
  },
  Concatenate(layer, inputs, { node, fail }) {
    const axis = layer.config.axis < 0 ? layer.config.axis + 4 : layer.config.axis;
    if (!(axis >= 1 && axis <= 3)) fail(`axis ${layer.config.axis}`);
    return node('Concat', inputs, [attr.int('axis', NHWC_TO_NCHW_AXIS[axis])]);
  },
  UpSampling2D(layer, [input], { node, initializer, fail }) {
    const c = layer.config;
    if (c.data_format !== 'channels_last') fail(`data_format ${c.data_format}`);
    if ((c.interpolation ?? 'nearest') !== 'nearest') fail(`interpolation ${c.interpolation}`);
    // Nearest with integer factors: output pixel (y, x) takes input (floor(y / s), floor(x / s)).
    const scales = initializer(`${layer.name}/scales`, [4], new Float32Array([1, 1, c.size[0], c.size[1]]));
    return node('Resize', [input, '', scales], [attr.string('mode', 'nearest'), attr.string('coordinate_transformation_mode', 'asymmetric'), attr.string('nearest_mode', 'floor')]);
  },
};

/**
 * Builds the ONNX model of a layers model read by readLayersModel. Throws on any layer type or
 * option it does not know. Returns the serialized ModelProto.
 */
export function convertLayersModel({ modelJson, weights }, { name, docString = '', metadata = {} }) {
  const topology = modelJson.modelTopology?.model_config;
  if (!topology || !['Functional', 'Model'].includes(topology.class_name)) {
    throw new Error(`${name}: expected a functional Keras model, got ${topology?.class_name}`);
  }
  const { layers, input_layers: inputLayers, output_layers: outputLayers } = topology.config;
  if (inputLayers.length !== 1 || outputLayers.length !== 1) throw new Error(`${name}: expected one input and one output`);

  const nodes = [];
  const initializers = [];
  const usedWeights = new Set();
  const tensorOf = new Map(); // layer name -> ONNX tensor name of its output
  let counter = 0;

  for (const layer of layers) {
    const fail = (why) => {
      throw new Error(`${name}: layer ${layer.name} (${layer.class_name}): unsupported ${why}`);
    };
    if (layer.class_name === 'InputLayer') {
      const shape = layer.config.batch_input_shape;
      if (shape.length !== 4 || shape[3] !== 3) fail(`input shape ${JSON.stringify(shape)}: expected [batch, height, width, 3]`);
      tensorOf.set(layer.name, 'input');
      continue;
    }
    const convert = LAYERS[layer.class_name];
    if (!convert) fail('layer type: scripts/models/layers-to-onnx.mjs converts only ' + Object.keys(LAYERS).join(', '));
    if (layer.inbound_nodes.length !== 1) fail(`${layer.inbound_nodes.length} calls (shared layers)`);
    const inputs = layer.inbound_nodes[0].map(([from, nodeIndex, tensorIndex]) => {
      if (nodeIndex !== 0 || tensorIndex !== 0 || !tensorOf.has(from)) fail(`input ${from}[${nodeIndex}][${tensorIndex}]`);
      return tensorOf.get(from);
    });
    const helpers = {
      fail,
      weight(weightName) {
        const w = weights.get(weightName);
        if (!w) fail(`weights: ${weightName} missing`);
        usedWeights.add(weightName);
        return w;
      },
      initializer(tensorName, dims, values) {
        initializers.push(floatTensor(tensorName, dims, values));
        return tensorName;
      },
      node(opType, nodeInputs, attribute = [], output = layer.name) {
        nodes.push(onnx.NodeProto.create({ name: `${output}_${counter++}`, opType, input: nodeInputs, output: [output], attribute }));
        return output;
      },
    };
    tensorOf.set(layer.name, convert(layer, inputs, helpers));
  }

  const unused = [...weights.keys()].filter((w) => !usedWeights.has(w));
  if (unused.length) throw new Error(`${name}: weights not used by any layer: ${unused.join(', ')}`);
  const [[outputLayer]] = outputLayers;
  if (!tensorOf.has(outputLayer)) throw new Error(`${name}: output layer ${outputLayer} not found`);
  nodes.push(onnx.NodeProto.create({ name: 'output_identity', opType: 'Identity', input: [tensorOf.get(outputLayer)], output: ['output'] }));

  const image = (dims) =>
    onnx.TypeProto.create({
      tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } },
    });
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
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value: String(value) })),
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
