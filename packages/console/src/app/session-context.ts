/** The signed-in user, for screens that act in their name ("Assign to me", "Mine"). */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { SessionInfo } from "../api/api-client.js";

/** The session, provided by the shell once signed in. */
export const SessionContext = createContext<SessionInfo | null>(null);

/** The signed-in user's session; throws outside the signed-in shell. */
export function useSession(): SessionInfo {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside the signed-in shell");
  return session;
}
