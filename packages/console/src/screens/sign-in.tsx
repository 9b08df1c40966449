/** The sign-in form: e-mail and password, the API's refusal shown under the form. */
import { useState } from "preact/hooks";
import type { SessionInfo } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import { useServices } from "../api/query-hooks.js";
import { Field } from "../components/field.js";
import { Failure } from "../components/states.js";

/** Signs in and hands the new session up. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const { api } = useServices();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api.send<SessionInfo>("POST", apiPath`/v1/session`, { email, password }));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in" id="main">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">OpenKYT console</h1>
        <p class="hint">Sign in with the e-mail and password your administrator gave you.</p>
        <Field id="email" label="E-mail">
          <input
            id="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <Field id="password" label="Password">
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        {error ? <Failure error={error} what="Sign-in refused" /> : null}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
