import { STORAGE_LEAD, StorageSettings } from './StorageForm';

/** Account settings > Storage: the same settings the two apps' Configuration > Storage show. */
export default function StoragePage() {
  return (
    <div className="page">
      <h1 className="page-title">Storage</h1>
      <p className="page-lead">{STORAGE_LEAD}</p>
      <StorageSettings />
    </div>
  );
}
