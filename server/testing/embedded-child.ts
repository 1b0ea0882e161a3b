// Test helper process: owns an embedded PostgreSQL in argv[2], writes a row, reports, then idles
// until the test kills it (with SIGKILL, to leave a server behind as a crashed app would).
import postgres from 'postgres';
import { startEmbeddedPostgres } from '@/db/embedded';

const pg = await startEmbeddedPostgres({ dataDir: process.argv[2], mode: 'own' });
const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
await sql`create table if not exists survivor (note text)`;
await sql`insert into survivor values (${process.argv[3] ?? 'written before the crash'})`;
await sql.end();
process.stdout.write(`READY ${pg.port}\n`);
// Exit with the test that started us (its end of our stdin closes when it goes).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setInterval(() => {}, 1 << 30);
