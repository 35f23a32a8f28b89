import type { AppDefinition } from '../../../../api/contract/apps';
import { STORAGE_LEAD, StorageSettings } from '../../settings/storage/StorageForm';
import { ConfigPage } from './ConfigNav';

/** Configuration > Storage of the apps that keep files: the account's storage settings. */
export default function StorageConfig({ app }: { app: AppDefinition }) {
  return (
    <ConfigPage app={app} title="Storage" lead={STORAGE_LEAD}>
      <StorageSettings />
    </ConfigPage>
  );
}
