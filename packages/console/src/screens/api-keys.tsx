/**
 * API keys (admins): the account's keys by name, a new one (named; its id and secret shown once,
 * each with a copy button), and revocation after a confirmation.
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import { CopyButton } from "../components/copy-button.js";
import { when } from "../components/format.js";
import { Empty, Failure, Loading } from "../components/states.js";

interface KeyWire {
  readonly id: string;
  readonly name: string | null;
  readonly created_at: string;
  readonly revoked_at: string | null;
  readonly secret?: string;
}

const PATH = apiPath`/v1/session/api-keys`;

/** The API keys screen. */
export function ApiKeys() {
  const { api, queries } = useServices();
  const keys = useApiQuery<KeyWire[]>(PATH);
  const [created, setCreated] = useState<KeyWire | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [name, setName] = useState("");
  const [confirming, setConfirming] = useState<string | null>(null);
  const act = async (run: () => Promise<void>) => {
    setError(null);
    try {
      await run();
      await invalidate(queries, PATH);
    } catch (caught) {
      setError(caught);
    }
  };
  if (keys.error instanceof ApiError && keys.error.status === 403) {
    return (
      <section aria-labelledby="keys-title">
        <h1 id="keys-title">API keys</h1>
        <Failure error={keys.error} what="This page is for admins" />
      </section>
    );
  }
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <p class="hint">
        Programs sign their requests with a key of this account. A revoked key is refused at once.
      </p>
      <form
        class="bulk"
        aria-label="Create a key"
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            setCreated(await api.send<KeyWire>("POST", PATH, name.trim() ? { name: name.trim() } : {}));
            setName("");
          });
        }}
      >
        <label for="key-name">Name</label>
        <input
          id="key-name"
          value={name}
          maxLength={100}
          placeholder="what uses it, e.g. payments service"
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit" class="primary">
          Create a key
        </button>
      </form>
      {created ? (
        <div role="status" class="card">
          <p class="ok">
            Key {created.name ? `“${created.name}” ` : ""}created. Copy its secret now: it is not shown again.
          </p>
          <p>
            Key id: <code class="break">{created.id}</code>{" "}
            <CopyButton text={created.id} label="Copy the key id" />
          </p>
          <p>
            Secret: <code class="break">{created.secret}</code>{" "}
            <CopyButton text={created.secret ?? ""} label="Copy the secret" />
          </p>
        </div>
      ) : null}
      {error ? <Failure error={error} what="Not done" /> : null}
      {keys.isPending ? <Loading what="API keys" /> : null}
      {keys.error && !(keys.error instanceof ApiError && keys.error.status === 403) ? (
        <Failure error={keys.error} />
      ) : null}
      {keys.data && keys.data.length === 0 ? <Empty>No API key yet.</Empty> : null}
      {keys.data && keys.data.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key id</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Revoke</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name ?? <span class="sub">unnamed</span>}</td>
                  <td class="mono">
                    {k.id} <CopyButton text={k.id} label={`Copy the id of ${k.name ?? k.id}`} />
                  </td>
                  <td>{when(k.created_at)}</td>
                  <td>{k.revoked_at ? `revoked ${when(k.revoked_at)}` : "live"}</td>
                  <td>
                    {k.revoked_at ? null : confirming === k.id ? (
                      <fieldset class="confirm">
                        <legend class="sr-only">{`Confirm revoking ${k.name ?? k.id}`}</legend>
                        <button
                          type="button"
                          class="danger"
                          onClick={() => {
                            setConfirming(null);
                            void act(
                              async () =>
                                void (await api.send("DELETE", apiPath`/v1/session/api-keys/${k.id}`)),
                            );
                          }}
                        >
                          Yes, revoke now
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </fieldset>
                    ) : (
                      <button
                        type="button"
                        aria-label={`Revoke ${k.name ?? k.id}`}
                        onClick={() => setConfirming(k.id)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
