// Precompress files for static hosting: FILE.gz and FILE.br beside each FILE, all at once.
//   node site/compress/compress.mjs FILE...
// Node's zlib runs each job on its thread pool, so the files compress in parallel. Brotli at its
// highest quality with a 16 MB window: slow (tens of seconds for the wasm) but done once per pinned
// file and cached by the build; a reader's link saves a quarter of the bytes gzip would send.
import { readFile, rename, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT, BROTLI_MAX_QUALITY } = zlib.constants;

/** Write through a temporary name so a killed build never leaves half a file under the real one. */
async function writeWhole(path, bytes) {
  await writeFile(`${path}.part`, bytes);
  await rename(`${path}.part`, path);
}

await Promise.all(process.argv.slice(2).map(async (file) => {
  const data = await readFile(file);
  const [gz, br] = await Promise.all([
    gzip(data, { level: 9 }),
    brotli(data, { params: { [BROTLI_PARAM_QUALITY]: BROTLI_MAX_QUALITY, [BROTLI_PARAM_LGWIN]: 24,
      [BROTLI_PARAM_SIZE_HINT]: data.length } }),
  ]);
  await Promise.all([writeWhole(`${file}.gz`, gz), writeWhole(`${file}.br`, br)]);
}));
