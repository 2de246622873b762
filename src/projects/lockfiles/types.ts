import type { Ecosystem } from '../../domain/ecosystems';

export type { Ecosystem };

/** What a lockfile or manifest says a project uses: one package at one resolved version. */
export interface LockedPackage {
  ecosystem: Ecosystem;
  /** The registry's name (`koa`, `@koa/router`, `github.com/gin-gonic/gin`, `org.springframework.boot:spring-boot-starter-web`). */
  name: string;
  /** The resolved version; '' when the file names none (an unpinned requirement, a managed Maven dependency). */
  version: string;
  /** Asked for by the project itself (not only pulled in by another package), when the file says. */
  direct: boolean;
}

/** The formats read, by the file name they are recognised by. */
export const LOCKFILE_NAMES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'requirements.txt',
  'poetry.lock',
  'uv.lock',
  'go.mod',
  'Cargo.lock',
  'pom.xml',
  'Gemfile.lock',
] as const;

export type LockfileName = (typeof LOCKFILE_NAMES)[number];
