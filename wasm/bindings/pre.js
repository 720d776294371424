// emcc 3.1.6's loader fetch()es the .wasm by absolute path when a global fetch exists, which node
// >= 18 has; in node the file must be read from disk instead. Hoisted into the MODULARIZE factory.
var fetch = (typeof process === 'object' && process.versions && process.versions.node) ? undefined : globalThis.fetch;
