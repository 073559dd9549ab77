import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

/** Where the PostgreSQL server binaries are, or why none were found. */
export type PostgresBinaries =
  | { readonly found: true; readonly binDir: string }
  | { readonly found: false; readonly reason: string };

/** A throwaway PostgreSQL server on loopback, as `startPostgresServer` left it. */
export interface PostgresServer {
  /** A URL of the server's `postgres` database, trust auth, user `loopgate`. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
}

/** The database user the throwaway cluster is made for (trust auth, no password). */
const USER = "loopgate";
/** How many random ports to try before giving up (another process may take one meanwhile). */
const PORT_TRIES = 5;

/**
 * Finds initdb and pg_ctl: on PATH (a symlink there counts), else Debian's
 * /usr/lib/postgresql/VERSION/bin, the newest version first.
 */
export function findPostgresBinaries(): PostgresBinaries {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  const initdb = onPath.status === 0 ? onPath.stdout.trim() : "";
  if (initdb !== "") {
    const binDir = dirname(initdb);
    if (existsSync(join(binDir, "pg_ctl"))) return { found: true, binDir };
  }
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const binDir = join(debian, version, "bin");
    if (existsSync(join(binDir, "initdb")) && existsSync(join(binDir, "pg_ctl"))) {
      return { found: true, binDir };
    }
  }
  return {
    found: false,
    reason: "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install postgresql",
  };
}

/**
 * Runs a server binary. PostgreSQL refuses to run as root, so as root it runs as the `postgres`
 * user Debian's package creates, which then owns the cluster's directory.
 */
function asServerUser(binary: string, args: readonly string[]): void {
  const root = process.getuid?.() === 0;
  const [command, argv] = root
    ? ["runuser", ["-u", "postgres", "--", binary, ...args]]
    : [binary, [...args]];
  const ran = spawnSync(command, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (ran.status !== 0) {
    throw new Error(
      `${binary} ${args.join(" ")} failed (${ran.status ?? ran.signal}): ${ran.stderr}${ran.stdout}`,
    );
  }
}

/** A loopback port free a moment ago; the server may still lose it to another process. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Makes a cluster in `dir` (initdb, trust auth, no fsync: it is thrown away) and starts it on
 * 127.0.0.1 at a random port, its socket in `dir` too. Stop it with `stopPostgresServer`.
 */
export async function startPostgresServer(binDir: string, dir: string): Promise<PostgresServer> {
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const dataDir = join(dir, "data");
  asServerUser(join(binDir, "initdb"), [
    "-D",
    dataDir,
    "-A",
    "trust",
    "-U",
    USER,
    "-E",
    "UTF8",
    "--no-sync",
    "--no-instructions",
  ]);
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_TRIES; attempt += 1) {
    const port = await freePort();
    try {
      asServerUser(join(binDir, "pg_ctl"), [
        "-D",
        dataDir,
        "-l",
        join(dir, "server.log"),
        "-w",
        "-o",
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=200`,
        "start",
      ]);
      const server = { url: `postgres://${USER}@127.0.0.1:${port}/postgres`, port, dataDir };
      writeFileSync(join(dir, "server.json"), JSON.stringify(server));
      return server;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** Stops a server `startPostgresServer` started (fast shutdown: sessions are cut off). */
export function stopPostgresServer(binDir: string, dataDir: string): void {
  asServerUser(join(binDir, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"]);
}
