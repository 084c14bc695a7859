/**
 * A storage-neutral description of stored column chunks: what an encoded chunk is made of (integer
 * streams stacked as in the cascaded compression of Gao &amp; Sakharnykh, seed paper 000 section 4,
 * dictionaries, validity) with every buffer a slice of the chunk's bytes, nothing decoded or
 * copied. Storage parses its wire format into these descriptions; executors decode them (the GPU
 * on the device) without importing storage.
 */
package io.warpdb.core.data.encoded;
