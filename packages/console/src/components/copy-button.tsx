/** A button that copies a value (an address, a hash, an id) and says so to screen readers too. */
import { useState } from "preact/hooks";

/** Copies `text`; `label` names what is copied ("Copy address"). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2_000);
  };
  return (
    <button type="button" class="copy" onClick={copy} title={label}>
      {state === "copied" ? "Copied" : state === "failed" ? "Not copied" : "Copy"}
      <span class="sr-only">{label.replace(/^Copy/, "")}</span>
      <span class="sr-only" aria-live="polite">
        {state === "copied" ? " (copied)" : state === "failed" ? " (the browser refused)" : ""}
      </span>
    </button>
  );
}
