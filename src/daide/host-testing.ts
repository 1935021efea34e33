import { after } from "node:test";
import { readRules } from "../engine/rules.ts";
import { getScenario } from "../variants/scenarios.ts";
import { DaideHost } from "./host.ts";
import type { HostOptions } from "./host-options.ts";
import { TestClient } from "./testing.ts";

/*
 * `entente daide host` games for a test file (host.test.ts, press.test.ts): a host on a free
 * loopback port (classical unless the options name a scenario, seed 7, until 1902, no wait
 * for orders) and test clients joined to it; every host and client is closed when the file's
 * tests end, whether they pass or fail.
 */

/** `defaults`: the file's own options, under each test's own. */
export function testHosts(defaults: Partial<HostOptions>) {
  const hosts: DaideHost[] = [];
  const clients: TestClient[] = [];

  after(async () => {
    for (const c of clients) c.close();
    for (const h of hosts) await h.close().catch(() => {});
  });

  async function start(over: Partial<HostOptions> = {}) {
    const scenario = over.scenario ?? getScenario("classical")!;
    const rules = readRules(undefined, scenario.variant.rules);
    if (!rules.ok) throw new Error(rules.error);
    const host = new DaideHost({
      scenario,
      rules: rules.rules,
      seed: 7,
      moveTime: 0,
      until: 1902,
      bots: [],
      port: 0,
      host: "127.0.0.1",
      // DAIDE_TEST_LOG=1 shows the host's log on stderr (to see where a failing test stopped).
      ...(process.env.DAIDE_TEST_LOG
        ? { log: (l: string) => process.stderr.write(`host: ${l}\n`) }
        : {}),
      ...defaults,
      ...over,
    });
    host.done.catch(() => {});
    hosts.push(host);
    return { host, port: await host.listen() };
  }

  async function join(port: number, host: DaideHost): Promise<TestClient> {
    const c = await TestClient.join(port, host.map.names);
    clients.push(c);
    return c;
  }

  /** A client connected without its initial message (for the framing's faults). */
  async function open(port: number, host: DaideHost): Promise<TestClient> {
    const c = await TestClient.open(port, host.map.names);
    clients.push(c);
    return c;
  }

  return { start, join, open };
}
