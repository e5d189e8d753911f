import { runInThisContext } from 'node:vm';

// onnxruntime-node's native code makes its output arrays in Node's own realm, and
// onnxruntime-common checks them with `instanceof` against the realm jest runs a test file in.
// Jest already hands the test realm Node's ArrayBuffer and Uint8Array; this does the same for the
// other typed arrays, as in production. Import it before onnxruntime-node.
const TYPED_ARRAYS = ['Int8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
for (const name of TYPED_ARRAYS) Object.assign(globalThis, { [name]: runInThisContext(name) as unknown });
