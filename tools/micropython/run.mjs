// Run a Python script under the real MicroPython interpreter (WebAssembly port).
//
//   node tools/micropython/run.mjs [--lib DIR_OR_FILE]... SCRIPT.py
//   node tools/micropython/run.mjs [--lib DIR_OR_FILE]... - < SCRIPT.py
//
// Every .py file named by --lib (or found directly inside a --lib folder) is
// copied into the interpreter's /lib, which is on sys.path, so the script can
// import it as MicroPython would on the Pico. The script's output goes to
// stdout; an uncaught Python exception prints its traceback to stderr and the
// exit status is 1.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const HEAP_BYTES = 8 * 1024 * 1024;

function parseArguments(argv) {
  const libs = [];
  let script = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--lib" && i + 1 < argv.length) libs.push(argv[++i]);
    else script = argv[i];
  }
  if (script === null) {
    process.stderr.write("usage: run.mjs [--lib DIR_OR_FILE]... SCRIPT.py|-\n");
    process.exit(2);
  }
  return { libs, script };
}

function pythonFiles(lib) {
  if (!fs.statSync(lib).isDirectory()) return [lib];
  return fs
    .readdirSync(lib)
    .filter((name) => name.endsWith(".py"))
    .map((name) => path.join(lib, name));
}

function installLibraries(mp, libs) {
  mp.FS.mkdirTree("/lib");
  for (const lib of libs) {
    for (const file of pythonFiles(lib)) {
      mp.FS.writeFile("/lib/" + path.basename(file), fs.readFileSync(file));
    }
  }
}

const { libs, script } = parseArguments(process.argv.slice(2));
const source = fs.readFileSync(script === "-" ? 0 : script, "utf8");
const mp = await loadMicroPython({
  heapsize: HEAP_BYTES,
  linebuffer: false,
  stdout: (data) => process.stdout.write(data),
  stderr: (data) => process.stderr.write(data),
});
installLibraries(mp, libs);
try {
  mp.runPython("import sys\nif '/lib' not in sys.path: sys.path.append('/lib')\n");
  mp.runPython(source);
} catch (error) {
  process.stderr.write(String(error && error.message ? error.message : error) + "\n");
  process.exit(1);
}
