/**
 * Webhooks (admins): the subscriptions, a new one (its secret shown once), deletion, and each
 * one's deliveries with the event sent (type, id, payload), a redelivery and a test event.
 */
import { WEBHOOK_EVENT_TYPES as EVENTS, type Page } from "@openkyt/core/wire";
import { useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath, queryString } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { DeliveryWire, WebhookWire } from "../api/wire-types.js";
import { CopyButton } from "../components/copy-button.js";
import { describedBy, Field, fieldMessages } from "../components/field.js";
import { short, when } from "../components/format.js";
import { Empty, Failure, Loading } from "../components/states.js";

/** One delivery attempt: what was sent (event type, id, payload) and how the receiver answered. */
function DeliveryRow({ d, onRedeliver }: { d: DeliveryWire; onRedeliver: (eventId: string) => void }) {
  return (
    <tr>
      <td>{when(d.at ?? null)}</td>
      <td>
        <span class="mono">{d.event_type ?? "event no longer kept"}</span>
        {d.event_id ? (
          <div class="sub">
            <span class="mono" title={d.event_id}>
              {short(d.event_id, 8)}
            </span>{" "}
            <CopyButton text={d.event_id} label={`Copy event id ${short(d.event_id, 6)}`} />
          </div>
        ) : null}
      </td>
      <td>
        <span class={d.ok ? "ok" : "bad"}>{d.ok ? "delivered" : "failed"}</span>
        {d.status_code ? ` ${d.status_code}` : ""}
        {d.attempt ? (
          <div class="sub">
            attempt {d.attempt}
            {d.duration_ms !== undefined ? `, ${d.duration_ms} ms` : ""}
          </div>
        ) : null}
        {d.error ? <div class="sub">{d.error}</div> : null}
      </td>
      <td>
        {d.payload ? (
          <details>
            <summary>Payload</summary>
            <pre class="payload">{JSON.stringify(d.payload, null, 2)}</pre>
          </details>
        ) : (
          "–"
        )}
      </td>
      <td>
        {d.event_id && d.event_type ? (
          <button type="button" onClick={() => onRedeliver(d.event_id ?? "")}>
            Redeliver
          </button>
        ) : null}
      </td>
    </tr>
  );
}

function Deliveries({ id }: { id: string }) {
  const { api, queries } = useServices();
  const path = apiPath`/v1/webhooks/${id}/deliveries/${queryString({ page_size: 20 })}`;
  const deliveries = useApiQuery<Page<DeliveryWire>>(path, { refetchMs: 5_000 });
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const act = async (what: string, run: () => Promise<{ event_type: string; event_id: string }>) => {
    setError(null);
    setNote(null);
    try {
      const queued = await run();
      setNote(
        `${what}: ${queued.event_type} ${short(queued.event_id, 6)} queued; its attempts appear below.`,
      );
      setTimeout(() => void invalidate(queries, apiPath`/v1/webhooks/${id}/deliveries/`), 800);
    } catch (caught) {
      setError(caught);
    }
  };
  const redeliver = (eventId: string) =>
    act("Redelivery", () => api.send("POST", apiPath`/v1/webhooks/${id}/redeliver/`, { event_id: eventId }));
  const test = () => act("Test event", () => api.send("POST", apiPath`/v1/webhooks/${id}/test/`));
  return (
    <div class="deliveries">
      <div class="actions">
        <button type="button" onClick={test}>
          Send a test event
        </button>
      </div>
      {note ? (
        <p role="status" class="ok">
          {note}
        </p>
      ) : null}
      {error ? <Failure error={error} what="Not queued" /> : null}
      {deliveries.isPending ? <Loading what="deliveries" /> : null}
      {deliveries.error ? <Failure error={deliveries.error} /> : null}
      {deliveries.data && deliveries.data.items.length === 0 ? <Empty>Nothing delivered yet.</Empty> : null}
      {deliveries.data && deliveries.data.items.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        <section class="table-wrap" tabIndex={0} aria-label="Deliveries">
          <table>
            <caption class="sr-only">Delivery attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Result</th>
                <th scope="col">Payload</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((d) => (
                <DeliveryRow key={d.id} d={d} onRedeliver={redeliver} />
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
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
          {EVENTS.filter((e) => e !== "webhook.test").map((e) => (
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
