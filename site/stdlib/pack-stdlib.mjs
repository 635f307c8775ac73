// Split Pyodide's standard library in two stored zips: what a boot needs, and the rest.
//
//   node site/stdlib/pack-stdlib.mjs STDLIB_ZIP CORE_OUT REST_OUT MODULE...
//
// Boots the pinned Pyodide from STDLIB_ZIP (npm's), imports MODULE... (what the worker and the
// recorder import, and the modules lessons use most) and sorts every member of the archive.
// Every module imported goes to CORE_OUT, with an unchecked hash-based .pyc beside its source (a boot
// then runs no compiler: 1.9 s → 0.6 s), and so do the packages holding them with their data files,
// and Pyodide's own top-level names. The other modules go to REST_OUT, which the worker fetches after
// boot or when a program first imports one (py/lazy_stdlib.py, from the list the core carries in
// stdlib-rest-modules.txt).
// Members are stored, not deflated: the transfer compression then sees the whole archive at once.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

// An installed stepwise names the pinned package's entry (its node_modules is not above this file).
const { loadPyodide } = await import(process.env.STEPWISE_PYODIDE ? pathToFileURL(process.env.STEPWISE_PYODIDE).href : "pyodide");

const [stdlib, coreOut, restOut, ...modules] = process.argv.slice(2);
const pyodide = await loadPyodide({ stdLibURL: stdlib, stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) });
pyodide.globals.set("WANTED", pyodide.toPy(modules));
const summary = pyodide.runPython(`
import importlib, importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

archive = next(path for path in sys.path if path.endswith(".zip"))
missing = []
for name in WANTED:
    try:
        importlib.import_module(name)
    except ImportError as error:  # not in this Pyodide (e.g. a module it leaves out): nothing to pack
        missing.append(f"{name}: {error}")

prefix = archive + "/"
used = {module.__file__[len(prefix):] for module in list(sys.modules.values())
        if isinstance(getattr(module, "__file__", None), str) and module.__file__.startswith(prefix)}
source = zipfile.ZipFile(archive)
members = source.infolist()

def top(member):
    first = member.split("/", 1)[0]
    return first[:-3] if first.endswith(".py") else first

def module_name(member):
    name = member[:-3].replace("/", ".")
    return name.removesuffix(".__init__")

# What stays in the core: every module imported above, the __init__ of every package holding one,
# Pyodide's own names, and the data files and folders of packages in the core.
core_members = set(used) | {m.filename for m in members if top(m.filename) not in sys.stdlib_module_names}
core_folders = {member.rsplit("/", 1)[0] + "/" for member in core_members if "/" in member}
for info in members:
    if not info.filename.endswith(".py") and (info.filename.rsplit("/", 1)[0] + "/") in core_folders:
        core_members.add(info.filename)

counts = {"core": 0, "rest": 0, "pyc": 0}
rest_modules = []
with zipfile.ZipFile("/tmp/core.zip", "w", zipfile.ZIP_STORED) as core, \
        zipfile.ZipFile("/tmp/rest.zip", "w", zipfile.ZIP_STORED) as rest:
    for info in members:
        data = source.read(info)
        stored = zipfile.ZipInfo(info.filename, info.date_time)
        stored.external_attr = info.external_attr
        if info.filename.endswith("/"):  # a folder entry goes where its files go (to both, maybe):
            # an empty folder in the booted archive would import as a namespace package
            holds = [m.filename for m in members if m.filename.startswith(info.filename) and not m.filename.endswith("/")]
            if any(m in core_members for m in holds):
                core.writestr(stored, data)
            if any(m not in core_members for m in holds):
                rest.writestr(stored, data)
            continue
        in_core = info.filename in core_members
        (core if in_core else rest).writestr(stored, data)
        counts["core" if in_core else "rest"] += 1
        if not in_core and info.filename.endswith(".py"):
            rest_modules.append(module_name(info.filename))
        if info.filename in used and info.filename.endswith(".py"):
            code = compile(data, prefix + info.filename, "exec", dont_inherit=True)
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            compiled = zipfile.ZipInfo(info.filename + "c", info.date_time)
            compiled.external_attr = info.external_attr
            core.writestr(compiled, bytes(pyc))
            counts["pyc"] += 1
    # What the rest holds, for py/lazy_stdlib.py (a data file: no module can be named like it).
    core.writestr(zipfile.ZipInfo("stdlib-rest-modules.txt", (2000, 1, 1, 0, 0, 0)), "\\n".join(sorted(rest_modules)) + "\\n")
f"{counts['core']} members in the core ({counts['pyc']} compiled), {counts['rest']} in the rest; not found: {missing}"
`);
writeFileSync(coreOut, pyodide.FS.readFile("/tmp/core.zip"));
writeFileSync(restOut, pyodide.FS.readFile("/tmp/rest.zip"));
process.stderr.write(`${summary}\n`);
