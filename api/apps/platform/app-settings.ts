import { sql } from 'kysely';
import type { Trx } from '../../db/index';
import type { AppId } from '../../contract/apps';

export type StoredAppSettings = { general: Record<string, unknown>; templates: Record<string, string> };

/** The stored general settings and template bodies of one app (empty objects when never saved). */
export async function storedAppSettings(trx: Trx, accountId: string, app: AppId): Promise<StoredAppSettings> {
  return storedAppSettingsOf(await appSettingsQuery(trx, accountId, app).execute());
}

export function appSettingsQuery(trx: Trx, accountId: string, app: AppId) {
  return trx
    .selectFrom('app_settings')
    .select(['general', 'templates'])
    .where('account_id', '=', accountId)
    .where('app', '=', app);
}

export function storedAppSettingsOf(rows: { general: Record<string, unknown> | null; templates: unknown }[]): StoredAppSettings {
  const row = rows[0];
  return { general: row?.general ?? {}, templates: (row?.templates ?? {}) as Record<string, string> };
}

export async function saveAppSettings(
  trx: Trx,
  accountId: string,
  app: AppId,
  part: { general?: Record<string, unknown>; templates?: Record<string, string> },
): Promise<void> {
  const general = JSON.stringify(part.general ?? {});
  const templates = JSON.stringify(part.templates ?? {});
  await sql`insert into app_settings (account_id, app, general, templates) values (${accountId}, ${app}, ${general}::jsonb, ${templates}::jsonb)
    on conflict (account_id, app) do update set
      general = ${part.general ? sql`excluded.general` : sql`app_settings.general`},
      templates = ${part.templates ? sql`excluded.templates` : sql`app_settings.templates`},
      updated_at = now()`.execute(trx);
}
