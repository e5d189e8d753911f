// Types of layers-to-onnx.mjs, for the tests that call it.
export interface LayersModel {
  modelJson: { modelTopology: { model_config: { class_name: string; config: { layers: { class_name: string; name: string }[] } } } };
  weights: Map<string, { shape: number[]; values: Float32Array }>;
}

export function readLayersModel(dir: string): LayersModel;

export function convertLayersModel(
  model: LayersModel,
  options: { name: string; docString?: string; metadata?: Record<string, string | number> },
): Uint8Array;
