/**
 * Projects (store/models/project.ts): the only code that touches the Project model. A write
 * replaces the whole document in one statement, checked against the revision it read, so two
 * uploads at once cannot interleave their packages (the later one is refused with a 409).
 */
import type { ProjectModel, ProjectRecord } from './models/project';
import { ConflictError } from '../errors';

export class ProjectStore {
  constructor(private readonly Project: ProjectModel) {}

  get(id: string): Promise<ProjectRecord | null> {
    return this.Project.findById(id).lean<ProjectRecord>().exec();
  }

  /** The project without its packages (what answering with its pins needs: a small read). */
  pins(id: string): Promise<Omit<ProjectRecord, 'packages'> | null> {
    return this.Project.findById(id, { packages: 0 }).lean<Omit<ProjectRecord, 'packages'>>().exec();
  }

  /** The projects of these teams and those the user made, newest first (at most 500), without their packages. */
  listFor(scope: { teamIds: readonly string[]; userId: string | null; all?: boolean }): Promise<ProjectRecord[]> {
    const filter = scope.all ? {} : { $or: [{ teamId: { $in: [...scope.teamIds] } }, ...(scope.userId ? [{ createdBy: scope.userId, teamId: null }] : [])] };
    return this.Project.find(filter, { packages: 0 }).sort({ createdAt: -1 }).limit(500).lean<ProjectRecord[]>().exec();
  }

  async insert(record: ProjectRecord): Promise<void> {
    await this.Project.create(record);
  }

  /** Replaces the project as read at `rev` (a 409 when someone wrote it since). */
  async replace(record: ProjectRecord): Promise<ProjectRecord> {
    const next = { ...record, rev: record.rev + 1, updatedAt: new Date() };
    const res = await this.Project.replaceOne({ _id: record._id, rev: record.rev }, next).exec();
    if (res.matchedCount === 0) throw new ConflictError(`Project ${record._id} was changed by another request at the same time; send yours again.`);
    return next;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.Project.deleteOne({ _id: id }).exec()).deletedCount > 0;
  }
}
