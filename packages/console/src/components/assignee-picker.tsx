/**
 * The assignee of an alert, chosen from the account's active users (never typed), with "Assign
 * to me" for the signed-in user and a way to leave it to nobody.
 */
import { useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import type { UserWire } from "../api/casework-types.js";
import { useApiQuery, useServices } from "../api/query-hooks.js";
import { useSession } from "../app/session-context.js";
import { Failure } from "./states.js";

/** The account's users who can be assigned (not disabled). */
export function useAssignees(): ReadonlyArray<UserWire> {
  const users = useApiQuery<UserWire[]>(apiPath`/v1/session/users`);
  return (users.data ?? []).filter((u) => u.disabled_at === null);
}

/** Picks and saves the assignee of alert `id` (now `current`); `onChanged` runs after a save. */
export function AssigneePicker({
  id,
  current,
  onChanged,
}: {
  id: string;
  current: string | null;
  onChanged: () => Promise<void>;
}) {
  const { api } = useServices();
  const me = useSession().user.email;
  const users = useAssignees();
  const [error, setError] = useState<unknown>(null);
  const assign = async (assignee: string | null) => {
    setError(null);
    try {
      await api.send("PATCH", apiPath`/v1/alerts/${id}/`, { assignee });
      await onChanged();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <div class="assignee">
      <label for={`assignee-${id}`}>Assignee</label>
      <select
        id={`assignee-${id}`}
        value={current ?? ""}
        onChange={(e) => assign(e.currentTarget.value === "" ? null : e.currentTarget.value)}
      >
        <option value="">nobody</option>
        {current !== null && !users.some((u) => u.email === current) ? (
          <option value={current}>{current}</option>
        ) : null}
        {users.map((u) => (
          <option key={u.id} value={u.email}>
            {u.email}
          </option>
        ))}
      </select>
      {current === me ? null : (
        <button type="button" onClick={() => assign(me)}>
          Assign to me
        </button>
      )}
      {error ? <Failure error={error} what="Not assigned" /> : null}
    </div>
  );
}
