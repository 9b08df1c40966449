/** Webhooks (admins): the subscriptions, a new one (its secret shown once), deletion, and each one's deliveries. */
import { WEBHOOK_EVENT_TYPES as EVENTS, type Page } from "@openkyt/core/wire";
import { useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { DeliveryWire, WebhookWire } from "../api/wire-types.js";
import { describedBy, Field, fieldMessages } from "../components/field.js";
import { when } from "../components/format.js";
import { Empty, Failure, Loading } from "../components/states.js";

function Deliveries({ id }: { id: string }) {
  const deliveries = useApiQuery<Page<DeliveryWire>>(apiPath`/v1/webhooks/${id}/deliveries/?page_size=10`);
  if (deliveries.isPending) return <Loading what="deliveries" />;
  if (deliveries.error) return <Failure error={deliveries.error} />;
  if (deliveries.data.items.length === 0) return <Empty>Nothing delivered yet.</Empty>;
  return (
    <ul class="plain">
      {deliveries.data.items.map((d) => (
        <li key={d.id}>
          {when(d.at ?? null)} {d.event_type ?? ""} {d.ok ? "delivered" : "failed"} {d.status_code ?? ""}{" "}
          {d.error ?? ""}
        </li>
      ))}
    </ul>
  );
}

/** The webhooks screen. */
export function Webhooks() {
  const { api, queries } = useServices();
  const hooks = useApiQuery<WebhookWire[]>(apiPath`/v1/webhooks/`);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<ReadonlyArray<string>>(["alert.created"]);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const made = await api.send<WebhookWire>("POST", apiPath`/v1/webhooks/`, { url, events });
      setSecret(made.secret ?? null);
      setUrl("");
      await invalidate(queries, apiPath`/v1/webhooks/`);
    } catch (caught) {
      setError(caught);
    }
  };
  const remove = async (id: string) => {
    setError(null);
    try {
      await api.send("DELETE", apiPath`/v1/webhooks/${id}/`);
      await invalidate(queries, apiPath`/v1/webhooks/`);
    } catch (caught) {
      setError(caught);
    }
  };
  if (hooks.error instanceof ApiError && hooks.error.status === 403) {
    return (
      <section aria-labelledby="hooks-title">
        <h1 id="hooks-title">Webhooks</h1>
        <Failure error={hooks.error} what="This page is for admins" />
      </section>
    );
  }
  const urlMessages = fieldMessages(error instanceof ApiError ? error.errors : undefined, "url");
  return (
    <section aria-labelledby="hooks-title">
      <h1 id="hooks-title">Webhooks</h1>
      <form class="hook-form" onSubmit={create} aria-label="New webhook">
        <Field id="hook-url" label="URL" messages={urlMessages}>
          <input
            id="hook-url"
            type="url"
            value={url}
            required
            onInput={(e) => setUrl(e.currentTarget.value)}
            {...describedBy("hook-url", urlMessages)}
          />
        </Field>
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((e) => (
            <label key={e}>
              <input
                type="checkbox"
                checked={events.includes(e)}
                onChange={() =>
                  setEvents(events.includes(e) ? events.filter((x) => x !== e) : [...events, e])
                }
              />{" "}
              {e}
            </label>
          ))}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary">
            Subscribe
          </button>
        </div>
      </form>
      {secret ? (
        <p role="status" class="ok">
          Signing secret (shown once): <code>{secret}</code>
        </p>
      ) : null}
      {error && urlMessages.length === 0 ? <Failure error={error} what="Not done" /> : null}
      {hooks.isPending ? <Loading what="webhooks" /> : null}
      {hooks.error ? <Failure error={hooks.error} /> : null}
      {hooks.data && hooks.data.length === 0 ? <Empty>No webhook yet.</Empty> : null}
      {hooks.data?.map((h) => (
        <div class="card" key={h.id}>
          <p>
            <strong class="mono">{h.url}</strong> · {h.events.join(", ")} · {h.state ?? "active"} · since{" "}
            {when(h.created_at)}
          </p>
          <div class="actions">
            <button
              type="button"
              onClick={() => setOpen(open === h.id ? null : h.id)}
              aria-expanded={open === h.id}
            >
              Deliveries
            </button>
            <button type="button" onClick={() => remove(h.id)}>
              Delete
            </button>
          </div>
          {open === h.id ? <Deliveries id={h.id} /> : null}
        </div>
      ))}
    </section>
  );
}
