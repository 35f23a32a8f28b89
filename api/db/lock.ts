import fs from 'node:fs';
import path from 'node:path';

// The embedded database admits one process. The server holds DATA_DIR/.lock (its pid) while it
// runs; another process that finds a live pid there refuses to open the directory.

export class DataDirBusy extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, '.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(file, 'utf8'));
      if (pid && pid !== process.pid && alive(pid)) {
        throw new DataDirBusy(
          `The embedded database in ${dataDir} is in use by another process (pid ${pid}), most likely the running server.\n` +
            `Stop it first, or point both at PostgreSQL with DATABASE_URL.`,
        );
      }
      fs.unlinkSync(file); // a stale lock from a process that is gone
    }
  }
  throw new DataDirBusy(`Could not lock ${dataDir}`);
}
