// The demo's user store: one user, looked up by name.
const USERS = [{ id: 123, username: "ada", password: "correct horse" }];

/** The user with this name and password, or undefined. */
export function findUser(username, password) {
  return USERS.find((user) => user.username === username && user.password === password);
}
