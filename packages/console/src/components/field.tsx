/** A labelled form field with its error from the API shown right under it. */
import type { ComponentChildren } from "preact";

/** The messages of one field of an API error, or none. */
export function fieldMessages(
  errors: Readonly<Record<string, ReadonlyArray<string>>> | undefined,
  name: string,
): ReadonlyArray<string> {
  return errors?.[name] ?? [];
}

/** A label, the control, and the field's error messages (linked to the control for screen readers). */
export function Field({
  id,
  label,
  messages = [],
  children,
}: {
  id: string;
  label: string;
  messages?: ReadonlyArray<string>;
  children: ComponentChildren;
}) {
  return (
    <div class={messages.length > 0 ? "field invalid" : "field"}>
      <label for={id}>{label}</label>
      {children}
      {messages.length > 0 ? (
        <span class="field-error" id={`${id}-error`} role="alert">
          {messages.join("; ")}
        </span>
      ) : null}
    </div>
  );
}

/** The aria attributes of a control whose field may carry an error. */
export function describedBy(id: string, messages: ReadonlyArray<string>) {
  return messages.length > 0 ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
}
