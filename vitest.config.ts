import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "bench/**/*.test.ts"],
    // Property tests run thousands of cases; the shared 2-core machine needs headroom.
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Most test
    // files wait on the processes they spawn, so two share the cores well (CI: 563 s → 308 s).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Only a directory: the first test that needs PostgreSQL starts the run's one server there.
    globalSetup: ["src/test-support/postgres-global-setup.ts"],
  },
});
