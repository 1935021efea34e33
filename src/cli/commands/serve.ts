import type { Command } from "commander";
import {
  examples,
  group,
  type Io,
  port,
  printed,
  type Run,
  reported,
  variantOption,
  whole,
} from "../define.ts";

/*
 * `entente serve`, `entente mail ingest` and `entente daide host`: the judge served over HTTP
 * (and mail), one raw mail handled as the receiver would, a standalone DAIDE game.
 */

export function addServe(program: Command, io: Io, run: Run): void {
  examples(
    program
      .command("serve")
      .summary("run the judge server (docs/judge.md)")
      .description(
        `Runs the judge: the web page, the API, deadlines, and play by email (docs/judge.md,
docs/email.md). SQLite in --data, or PostgreSQL when DATABASE_URL=postgres://... is set.
Runs until SIGINT or SIGTERM; its log goes to stderr.`,
      )
      .option("--port <N>", "the HTTP port (default: PORT, else 8080; 0 picks a free one)", port)
      .option("--host <H>", "the address to listen on (default: HOST, else 0.0.0.0)")
      .option("--data <DIR>", "the data folder: SQLite database, outbox (default: ./data)")
      .option(
        "--smtp-port <N>",
        "the mail receiver's port (default: ENTENTE_SMTP_PORT, or none)",
        port,
      )
      .option("--smtp-host <H>", "the mail receiver's address (default: ENTENTE_SMTP_HOST)")
      .option(
        "--public-url <URL>",
        "the judge's web address, for links in mail (default: ENTENTE_PUBLIC_URL, or none)",
      )
      .option(
        "--daide-ports <FIRST-LAST>",
        "ports for games with seats for DAIDE clients, one per game (docs/daide.md; default: ENTENTE_DAIDE_PORTS, or none)",
      )
      .action(
        run(
          (o: {
            port?: string;
            host?: string;
            data?: string;
            smtpPort?: string;
            smtpHost?: string;
            publicUrl?: string;
            daidePorts?: string;
          }) => {
            import("../serve.ts")
              .then(({ serve }) => serve(o))
              .catch((e: unknown) => {
                io.err(`entente serve: ${e instanceof Error ? e.message : String(e)}\n`);
                process.exit(1);
              });
            return 0;
          },
        ),
      ),
    [
      ["entente serve", "http://localhost:8080, data in ./data"],
      ["entente serve --port 9000 --data /var/lib/entente --smtp-port 2525", "and mail"],
      [
        "entente serve --daide-ports 16713-16812",
        "games with seats for DAIDE clients (AI players)",
      ],
    ],
  );
  for (const cmd of ["backup", "restore"] as const) {
    const c = program
      .command(cmd)
      .summary(
        cmd === "backup"
          ? "copy the judge's SQLite database, safe while the server runs"
          : "put a backup in place (the server stopped; docs/judge.md)",
      )
      .description(
        cmd === "backup"
          ? `Copies the judge's SQLite database (--data) to FILE with SQLite's online backup, safe
while the server runs; the copy is checked and its games counted. With DATABASE_URL set to
PostgreSQL it says which PostgreSQL tool does it instead (docs/judge.md, "Backups").`
          : `Puts a backup made by entente backup in place of the judge's SQLite database (--data),
after checking it. The server must be stopped: while a server (or, on Linux, any process)
has the database open the restore is refused, naming it, and nothing changes. An existing
database is replaced only with --force.`,
      )
      .argument("<FILE>", cmd === "backup" ? "where to write the copy" : "the backup to restore")
      .option("--data <DIR>", "the data folder (default: ./data)");
    if (cmd === "restore") c.option("--force", "replace an existing database");
    examples(
      c.action(
        run(
          printed(io, async (file: string, o: { data?: string; force?: boolean }) =>
            (await import("../backup.ts")).cmdBackup(cmd, {
              file,
              data: o.data,
              force: o.force ?? false,
            }),
          ),
        ),
      ),
      cmd === "backup"
        ? [
            ["entente backup backups/entente-2026-11-24.sqlite", "a copy of ./data's database"],
            ["entente backup /mnt/b/club.sqlite --data /var/lib/entente", "another data folder"],
          ]
        : [["entente restore backups/entente-2026-11-24.sqlite --force", "the server stopped"]],
    );
  }
  const mail = group(
    program,
    "mail",
    "play by email tools (docs/email.md)",
    "Play by email tools (docs/email.md).",
    [["entente mail ingest order.eml", "handle a mail, print the reply"]],
  );
  examples(
    mail
      .command("ingest")
      .summary("handle a raw mail as the judge's receiver does; print the reply")
      .description(
        "Handles a raw mail exactly as the judge's mail receiver does (same store, the reply\nqueued in the outbox) and prints the reply. Exit status 1 if the mail was refused.",
      )
      .argument("<FILE.eml>", "the raw mail, or - for standard input")
      .option("--data <DIR>", "the data folder (default: ./data)")
      .action(
        run(async (file: string, o: { data?: string }) => {
          const { cmdMailIngest } = await import("../mail.ts");
          const r = await cmdMailIngest({ file, data: o.data });
          return reported(io, r, "mail ingest", "the mail was not accepted (the reply says why)");
        }),
      ),
    [
      ["entente mail ingest order.eml", "the judge's reply"],
      ["entente mail ingest - --data ./data < order.eml", "from standard input"],
    ],
  );

  // --- daide host ----------------------------------------------------------------------------
  const daide = group(
    program,
    "daide",
    "DAIDE: host a game for AI clients over TCP (docs/daide.md)",
    "DAIDE, the protocol of Diplomacy AI programs (docs/daide.md).",
    [["entente daide host --port 16713", "one game for seven DAIDE clients"]],
  );
  examples(
    daide
      .command("host")
      .summary("one game on one port for DAIDE clients; a JSON summary line at the end")
      .description(
        `Hosts one game for DAIDE clients (no press by default; --level 10 for SND and FRM
between the clients) on --port: clients take the seats in the order they send NME
(IAM brings a dropped client back), OBS watches, --bots seats are played by a built-in player
(the last seats, or those --bot-powers names or draws). The game starts when every seat is taken; a phase ends when
every power is ready (GOF, or complete orders without NOT (GOF)) or its time runs out; the
game ends at a solo, a draw all survivors ask for (DRW), or the start of --until YEAR (a
draw among the survivors). Then every client gets SMR and OFF, one JSON line is printed
(game, phases, result, each power's centres and client) and the exit status is 0. The game
runs on the engine; with --data its record is written there (entente replay reads it).`,
      )
      .requiredOption("--port <N>", "the TCP port (0 picks a free one, said on stderr)", port)
      .option("--host <H>", "the address to listen on (default: 0.0.0.0)")
      .addOption(variantOption("the variant (classical, europe1935)", "classical"))
      .option("--players <N>", "the scenario (classical: 7, 6, 5, 4, 3, 3b, 2)")
      .option("--move-time <S>", "seconds per phase; 0: no time limit", whole(0), 60)
      .option("--until <YEAR>", "end the game at the start of this year (a draw)", whole())
      .option(
        "--bots <K>",
        "built-in players for K seats (the last, or those --bot-powers says)",
        whole(0),
        0,
      )
      .option(
        "--bot <ID>",
        "which built-in player (docs/bots.md: entente, greedy, random, hold)",
        "random",
      )
      .option(
        "--bot-powers <LIST>",
        "the built-in players' seats: powers (TUR,ENG), or random (drawn with --seed)",
      )
      .option("--level <L>", "press level: 0 (no press) or 10 (peace and alliances)", "0")
      .option("--seed <S>", "seeds the built-in players and the scenario's draws", whole(), 1)
      .option("--data <DIR>", "write the game's record here when it ends")
      .action(
        run(
          async (o: {
            port: string;
            host?: string;
            variant: string;
            players?: string;
            moveTime: number;
            until?: number;
            bots: number;
            bot: string;
            botPowers?: string;
            level?: string;
            seed: number;
            data?: string;
          }) => {
            const { cmdDaideHost } = await import("../daide.ts");
            return cmdDaideHost(
              o,
              (t) => io.out(t),
              (t) => io.err(t),
            );
          },
        ),
      ),
    [
      ["entente daide host --port 16713", "seven DAIDE clients, 60 s a phase"],
      [
        "entente daide host --port 16713 --bots 4 --move-time 5 --until 1910",
        "three clients and four built-in players, to 1910",
      ],
      [
        "entente daide host --port 16713 --bots 6 --bot entente --bot-powers random --seed 7",
        "one client against six built-in players, their seats drawn",
      ],
      ["entente daide host --port 16713 --variant europe1935 --data games", "keep the record"],
    ],
  );
}
