/**
 * The policy a new console password must meet: 12 to 1024 characters, not blank, and not
 * guessable as zxcvbn-ts judges it (a score of at least 3 of 4: repeated characters and
 * patterns, sequences, keyboard walks, dates and the tens of thousands of common passwords,
 * names and words of its common and English dictionaries, l33t spellings included, and the
 * user's own e-mail). The estimator and its dictionaries load on the first check (about a
 * second) and are kept for the process: they are immutable data.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** Shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest password accepted. */
export const MAX_PASSWORD_LENGTH = 1024;
/** Lowest zxcvbn score (0-4) accepted: 3 is "safely unguessable" against an offline attack at moderate speed. */
export const MIN_PASSWORD_SCORE = 3;
/** zxcvbn's work grows with the length; past this many characters only the start is judged. */
const JUDGED_CHARACTERS = 128;

let estimator: Promise<ZxcvbnFactory> | undefined;

async function loadEstimator(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory }, common, en] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]);
  return new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
}

/**
 * Why a new password is refused, or null when it is acceptable. `userInputs` are words of the
 * user (the e-mail, its parts) that a password must not be built from.
 */
export async function passwordProblem(
  password: string,
  userInputs: readonly string[] = [],
): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === "") return "must not be blank";
  estimator ??= loadEstimator().catch((error: unknown) => {
    estimator = undefined;
    throw error;
  });
  const judged = (await estimator).check(password.slice(0, JUDGED_CHARACTERS), [...userInputs]);
  if (judged.score >= MIN_PASSWORD_SCORE) return null;
  const why = judged.feedback.warning ?? "it is too easy to guess";
  const hint = judged.feedback.suggestions[0];
  return `is too easy to guess (${why.replace(/\.$/, "")}${hint ? `; ${hint.replace(/\.$/, "").toLowerCase()}` : ""})`;
}
