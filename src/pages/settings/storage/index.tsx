import { Link } from 'wouter';
import { STORAGE_LEAD, StorageSettings } from './StorageForm';

/** Account settings > Storage: the same settings the two apps' Configuration > Storage show. */
export default function StoragePage() {
  return (
    <div className="page">
      <h1 className="page-title">Storage</h1>
      <p className="page-lead">{STORAGE_LEAD}</p>
      <p>
        To find, export or erase everything held about one caller, open <Link href="~/settings/privacy">Customer data</Link>.
      </p>
      <StorageSettings />
    </div>
  );
}
