import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "bench/**/*.test.ts"],
    // Property tests run thousands of cases; the shared 2-core machine needs headroom.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Only a directory: the first test that needs PostgreSQL starts the run's one server there.
    globalSetup: ["src/test-support/postgres-global-setup.ts"],
  },
});
