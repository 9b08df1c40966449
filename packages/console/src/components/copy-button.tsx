/** A button that copies a text (an id, a secret, a hash) and says so in a live region. */
import { useState } from "preact/hooks";

/** Copies `text`; `label` names what is copied for screen readers. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState<string>("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone("Copied");
    } catch {
      setDone("Select and copy by hand");
    }
  };
  return (
    <span class="copy">
      <button type="button" class="small" onClick={copy} aria-label={`Copy ${label}`}>
        Copy
      </button>
      <span aria-live="polite" class="sub">
        {done}
      </span>
    </span>
  );
}
