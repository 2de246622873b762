/**
 * Uploaded archives are kept under `<dataDir>/archives/<sha256>.<format>` for as long as a
 * library builds from them (a refresh reads the file again). When a library stops using
 * one — it is deleted, a failed first add removes it, a forced upload replaces it — the
 * file goes too, unless another library (another team's copy of the same upload) still
 * names the same hash: files are shared by content, so the check is by reference count.
 *
 * Call it after the record that referenced the file was deleted or changed, so the count
 * no longer includes it. (The one window left: an upload of the same bytes that has just
 * found the file present but not yet written its record; its build then fails with "upload
 * it again" and nothing half-written stays.)
 */
import fs from 'node:fs';
import type { Ports } from '../ports';
import type { LibrarySourceParams } from '../store/models/library';
import { archivePath } from '../indexing/sources/archive/source';

export async function releaseArchive(services: Pick<Ports, 'config' | 'libraries' | 'log'>, params: LibrarySourceParams | null | undefined): Promise<boolean> {
  if (params?.source !== 'archive') return false;
  if ((await services.libraries.countArchiveUsers(params.sha256)) > 0) return false;
  try {
    fs.rmSync(archivePath(services.config.dataDir, params), { force: true });
    return true;
  } catch (error) {
    // The library is gone either way; a file left behind is only disk space.
    services.log.warn({ err: error, sha256: params.sha256 }, 'could not delete an archive no library uses');
    return false;
  }
}
