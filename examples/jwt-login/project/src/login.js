// The task: login() must return { token } — an HS256 JWT whose payload carries the user's
// numeric id as `userId`. Left unimplemented; the agent writes it.

/** Logs a user in. */
export function login(_username, _password, _secret) {
  throw new Error("not implemented");
}
