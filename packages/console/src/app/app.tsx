/**
 * The console's shell: asks the server who is signed in, shows the sign-in form or the screens
 * with the navigation (admin pages only for admins), and signs out.
 */
import { useEffect, useState } from "preact/hooks";
import type { SessionInfo } from "../api/api-client.js";
import { apiPath, isPathValue, UnsafePathValue } from "../api/api-path.js";
import { useServices } from "../api/query-hooks.js";
import { Failure, Loading } from "../components/states.js";
import { AddressPage } from "../screens/address-page.js";
import { AlertPage } from "../screens/alert-page.js";
import { AlertQueue } from "../screens/alert-queue.js";
import { ApiKeys } from "../screens/api-keys.js";
import { AuditLog } from "../screens/audit-log.js";
import { ManualChecks } from "../screens/manual-checks.js";
import { Operations } from "../screens/operations.js";
import { Overview } from "../screens/overview.js";
import { RiskModelPage } from "../screens/risk-model-page.js";
import { RiskModels } from "../screens/risk-models.js";
import { SignIn } from "../screens/sign-in.js";
import { TeamSettings } from "../screens/team-settings.js";
import { TransferPage } from "../screens/transfer-page.js";
import { Transfers } from "../screens/transfers.js";
import { Users } from "../screens/users.js";
import { Webhooks } from "../screens/webhooks.js";
import { href, type Route, useRoute } from "./router.js";
import { SessionContext } from "./session-context.js";

const NAV: ReadonlyArray<{ path: string; label: string; admin?: boolean }> = [
  { path: "overview", label: "Overview" },
  { path: "alerts", label: "Alerts" },
  { path: "transfers", label: "Transfers" },
  { path: "checks", label: "Manual checks" },
  { path: "risk-models", label: "Risk models" },
  { path: "operations", label: "Operations" },
  { path: "webhooks", label: "Webhooks", admin: true },
  { path: "api-keys", label: "API keys", admin: true },
  { path: "users", label: "Users", admin: true },
  { path: "audit", label: "Audit log", admin: true },
  { path: "settings", label: "Team settings" },
];

function Screen({ route, session }: { route: Route; session: SessionInfo }) {
  const [section = "overview", id] = route.parts;
  const admin = session.user.role === "admin";
  // An id no API path can carry (`.`, `..`, empty) names nothing: say so rather than ask.
  if (id !== undefined && !isPathValue(id)) return <Failure error={new UnsafePathValue(id)} />;
  switch (section) {
    case "alerts":
      return id ? <AlertPage id={id} /> : <AlertQueue query={route.query} />;
    case "transfers":
      return id ? <TransferPage id={id} /> : <Transfers query={route.query} />;
    case "checks":
      return <ManualChecks selected={id ?? null} />;
    case "risk-models":
      return id ? <RiskModelPage id={id} admin={admin} /> : <RiskModels admin={admin} />;
    case "webhooks":
      return <Webhooks />;
    case "addresses": {
      const address = route.parts[2];
      if (id === undefined || address === undefined || !isPathValue(address))
        return <Failure error={new Error("an address page is #/addresses/NETWORK/ADDRESS")} />;
      return <AddressPage network={id} address={address} />;
    }
    case "api-keys":
      return <ApiKeys />;
    case "settings":
      return <TeamSettings admin={admin} />;
    case "operations":
      return <Operations admin={admin} />;
    case "users":
      return admin ? <Users /> : <Failure error={new Error("this page is for admins")} />;
    case "audit":
      return admin ? (
        <AuditLog query={route.query} />
      ) : (
        <Failure error={new Error("this page is for admins")} />
      );
    default:
      return <Overview />;
  }
}

/** The whole console. */
export function App() {
  const { api, queries } = useServices();
  const route = useRoute();
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [state, setState] = useState<"asking" | "ready" | "failed">("asking");
  const [error, setError] = useState<unknown>(null);
  const signedIn = (s: SessionInfo | null) => {
    api.setCsrf(s?.csrf_token ?? null);
    if (!s) queries.clear();
    setSession(s);
  };
  useEffect(() => {
    api.onSignedOut(() => signedIn(null));
    api
      .get<SessionInfo>(apiPath`/v1/session`)
      .then((s) => signedIn(s))
      .catch((caught: { status?: number }) => {
        if (caught.status !== 401) setError(caught);
      })
      .finally(() => setState(error ? "failed" : "ready"));
  }, []);
  if (state === "asking") return <Loading what="the console" />;
  if (error) return <Failure error={error} what="The server" />;
  if (!session) return <SignIn onSignedIn={signedIn} />;
  const signOut = async () => {
    try {
      await api.send("DELETE", apiPath`/v1/session`);
    } finally {
      signedIn(null);
      window.location.hash = "";
    }
  };
  const section = route.parts[0] ?? "overview";
  return (
    <div class="shell">
      <button type="button" class="skip" onClick={() => document.getElementById("main")?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <span class="brand">OpenKYT</span>
        <nav aria-label="Sections">
          <ul>
            {NAV.filter((n) => !n.admin || session.user.role === "admin").map((n) => (
              <li key={n.path}>
                <a href={href(`/${n.path}`)} aria-current={section === n.path ? "page" : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {session.user.email}{" "}
            <span class="role">
              ({session.user.role}, account {session.user.account})
            </span>
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <SessionContext.Provider value={session}>
          <Screen route={route} session={session} />
        </SessionContext.Provider>
      </main>
    </div>
  );
}
