/**
 * Where `openkyt users create` gets a password: a line of standard input (`--password-stdin`,
 * for scripts), a hidden prompt when standard input is a terminal, or none (a password is then
 * generated and printed once).
 */
import { createInterface } from "node:readline";

/** The first line of standard input, without its line end. */
export async function readPasswordLine(input: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const lines = createInterface({ input, terminal: false });
  try {
    for await (const line of lines) return line.replace(/\r$/, "");
    return "";
  } finally {
    lines.close();
  }
}

/** Asks for a password on the terminal without echoing it; resolves with what was typed. */
export function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    const out = process.stderr;
    out.write(question);
    stdin.setRawMode?.(true);
    stdin.resume();
    let typed = "";
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") {
          stdin.setRawMode?.(false);
          stdin.pause();
          stdin.off("data", onData);
          out.write("\n");
          resolve(typed);
          return;
        }
        if (ch === "\u0003") process.exit(130);
        typed = ch === "\u007f" ? typed.slice(0, -1) : typed + ch;
      }
    };
    stdin.on("data", onData);
  });
}
