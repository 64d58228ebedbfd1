-- The embedded database's upkeep runs in process now (no job row per run): the periodic job scheduled before has no handler any more.
DELETE FROM "jobs" WHERE "name" = 'platform.embedded-vacuum' AND "status" IN ('pending', 'running');
