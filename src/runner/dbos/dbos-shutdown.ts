/** Whether this process launched DBOS and shut it down (see `lingersAfterDbos`). */
let shutDown = false;

/** Notes that DBOS was shut down in this process. */
export function noteDbosShutdown(): void {
  shutDown = true;
}

/**
 * Whether timers DBOS leaves behind may keep this process alive: DBOS 5.3's shutdown does not
 * end a workflow paused in `DBOS.recv`, whose wait keeps polling (observed: the process lived
 * about 10 s after its command was done). Kept free of DBOS imports: the CLI entry reads it.
 */
export function lingersAfterDbos(): boolean {
  return shutDown;
}
