/**
 * Runs a command with its stdout made non-blocking, as a parent that shares its pipe in that mode
 * hands it over: `bun _nonblocking-stdout.ts COMMAND ARGS...` sets the flag on its own stdout and
 * then becomes the command (`execvp`, so that the command has the very same open pipe: a spawned
 * child is given its descriptors back in blocking mode). A write to the pipe when it is full then
 * fails with EAGAIN instead of waiting. Linux only (the flag's value), under Bun (`bun:ffi` calls
 * the C library).
 */

/** The slice of `bun:ffi` used (typed here: the project's types are Node's). */
interface Ffi {
  dlopen(name: string, symbols: Record<string, { args: string[]; returns: string }>): {
    symbols: { fcntl(fd: number, command: number, arg: number): number; execvp(file: number, argv: number): number };
  };
  ptr(view: ArrayBufferView): number;
}
const specifier = "bun:ffi";
const { dlopen, ptr } = await import(specifier) as Ffi;

const F_GETFL = 3;
const F_SETFL = 4;
const O_NONBLOCK = 0o4000;

const { symbols } = dlopen("libc.so.6", {
  fcntl: { args: ["i32", "i32", "i32"], returns: "i32" },
  execvp: { args: ["ptr", "ptr"], returns: "i32" },
});
const flags = symbols.fcntl(1, F_GETFL, 0);
if (flags < 0 || symbols.fcntl(1, F_SETFL, flags | O_NONBLOCK) < 0) throw new Error("fcntl failed on stdout");
const argv = process.argv.slice(2);
const strings = argv.map((arg) => Buffer.from(`${arg}\0`));
// NULL-terminated array of pointers to the strings (kept alive in `strings` until execvp).
const pointers = new BigUint64Array(argv.length + 1);
for (const [i, text] of strings.entries()) pointers[i] = BigInt(ptr(text));
symbols.execvp(ptr(strings[0]), ptr(pointers));
throw new Error(`cannot run ${argv[0]}`);
