/**
 * The account's users (admins): create one (the password is handed over by the admin), change a
 * role, disable one after a confirmation (their sessions end at once). An admin cannot change
 * themselves: another admin does.
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import type { UserWire } from "../api/casework-types.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import { useSession } from "../app/session-context.js";
import { fieldMessages } from "../components/field.js";
import { when } from "../components/format.js";
import { Failure, Loading } from "../components/states.js";

const PATH = apiPath`/v1/session/users`;

/** The users screen. */
export function Users() {
  const { api, queries } = useServices();
  const me = useSession().user.id;
  const users = useApiQuery<UserWire[]>(PATH);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const act = async (run: () => Promise<unknown>, done: string) => {
    setError(null);
    setMessage(null);
    try {
      await run();
      setMessage(done);
      await invalidate(queries, PATH);
    } catch (caught) {
      setError(caught);
    }
  };
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const email = String(data.get("email") ?? "");
    void act(async () => {
      await api.send("POST", PATH, {
        email,
        role: String(data.get("role")),
        password: String(data.get("password") ?? ""),
      });
      form.reset();
    }, `${email} can now sign in.`);
  };
  const problems = (field: string) =>
    fieldMessages(error instanceof ApiError ? error.errors : undefined, field);
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <form class="filters card" onSubmit={create} aria-label="Create a user">
        <div class="field">
          <label for="u-email">E-mail</label>
          <input id="u-email" name="email" type="email" required autoComplete="off" />
          {problems("email").map((m) => (
            <span class="error" key={m}>
              {m}
            </span>
          ))}
        </div>
        <div class="field">
          <label for="u-role">Role</label>
          <select id="u-role" name="role" defaultValue="analyst">
            <option value="analyst">analyst</option>
            <option value="admin">admin</option>
          </select>
        </div>
        <div class="field">
          <label for="u-password">Initial password</label>
          <input
            id="u-password"
            name="password"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
          />
          {problems("password").map((m) => (
            <span class="error" key={m}>
              {m}
            </span>
          ))}
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Create the user
          </button>
        </div>
      </form>
      {message ? (
        <p role="status" class="ok">
          {message}
        </p>
      ) : null}
      {error ? <Failure error={error} what="Not done" /> : null}
      {users.isPending ? <Loading what="users" /> : null}
      {users.error ? <Failure error={users.error} /> : null}
      {users.data ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => (
                <tr key={u.id}>
                  <td>{u.email}</td>
                  <td>
                    {u.id === me || u.disabled_at ? (
                      u.role
                    ) : (
                      <select
                        aria-label={`Role of ${u.email}`}
                        value={u.role}
                        onChange={(e) =>
                          act(
                            () =>
                              api.send("PATCH", apiPath`/v1/session/users/${u.id}`, {
                                role: e.currentTarget.value,
                              }),
                            `${u.email} is now ${e.currentTarget.value}.`,
                          )
                        }
                      >
                        <option value="analyst">analyst</option>
                        <option value="admin">admin</option>
                      </select>
                    )}
                  </td>
                  <td>{when(u.created_at)}</td>
                  <td>
                    {u.disabled_at ? `disabled ${when(u.disabled_at)}` : u.id === me ? "you" : "active"}
                  </td>
                  <td>
                    {u.id === me || u.disabled_at ? null : confirming === u.id ? (
                      <fieldset class="confirm">
                        <legend class="sr-only">{`Confirm disabling ${u.email}`}</legend>
                        <button
                          type="button"
                          class="danger"
                          onClick={() => {
                            setConfirming(null);
                            void act(
                              () => api.send("PATCH", apiPath`/v1/session/users/${u.id}`, { disabled: true }),
                              `${u.email} is disabled; their sessions ended.`,
                            );
                          }}
                        >
                          Yes, disable {u.email}
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </fieldset>
                    ) : (
                      <button type="button" onClick={() => setConfirming(u.id)}>
                        Disable
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
