// Types of ncnn-to-onnx.mjs, for the tests that call it.
export interface NcnnLayer {
  type: string;
  name: string;
  bottoms: string[];
  tops: string[];
  params: Map<number, number | number[]>;
}

export interface NcnnModel {
  layers: NcnnLayer[];
  bin: Buffer;
}

/** Output = scale x (input - 2 x context), for inputs whose inner part is a multiple of `multiple`. */
export interface ModelGeometry {
  scale: number;
  context: number;
  multiple: number;
}

export function parseNcnnParam(text: string): NcnnLayer[];
export function readNcnnModel(paramPath: string, binPath: string): NcnnModel;
export function analyseNcnnModel(layers: NcnnLayer[]): ModelGeometry;
export function convertNcnnModel(
  model: NcnnModel,
  options: { name: string; docString?: string; metadata?: Record<string, string | number> },
): { bytes: Uint8Array; geometry: ModelGeometry };
