/**
 * pom.xml (linkedom's XML parser, already a dependency; it resolves no external entities):
 * the parent POM and the dependencies, versions with `${property}` references resolved from
 * the POM's own properties and dependencyManagement. A version the parent manages (a Spring
 * Boot starter's) is not in the file: such a dependency is kept without a version.
 */
import { DOMParser } from 'linkedom';
import type { LockedPackage } from './types';
import { LockfileError } from './errors';

type El = { tagName?: string; localName?: string; children: ArrayLike<El>; textContent: string | null };

const nameOf = (e: El) => (e.localName ?? e.tagName ?? '').toLowerCase();
const childrenOf = (e: El | undefined, name: string): El[] => (e ? Array.from(e.children).filter((c) => nameOf(c) === name.toLowerCase()) : []);
const child = (e: El | undefined, name: string): El | undefined => childrenOf(e, name)[0];
const textOf = (e: El | undefined, name: string): string => child(e, name)?.textContent?.trim() ?? '';

export function parsePom(text: string): LockedPackage[] {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new LockfileError('pom.xml must not declare a DOCTYPE or entities.');
  const doc = new DOMParser().parseFromString(text, 'text/xml') as unknown as { documentElement: El | null };
  const project = doc.documentElement;
  if (!project || nameOf(project) !== 'project') throw new LockfileError('pom.xml has no <project> element.');
  const props = new Map<string, string>();
  for (const p of Array.from(child(project, 'properties')?.children ?? [])) props.set(nameOf(p), p.textContent?.trim() ?? '');
  const parent = child(project, 'parent');
  props.set('project.version', textOf(project, 'version') || textOf(parent, 'version'));
  props.set('project.parent.version', textOf(parent, 'version'));
  const resolve = (v: string, depth = 0): string =>
    depth > 5
      ? v
      : v.replace(/\$\{([^}]+)\}/g, (m, key: string) => (props.has(key.toLowerCase()) ? resolve(props.get(key.toLowerCase()) ?? '', depth + 1) : m));
  const managed = new Map<string, string>();
  for (const d of childrenOf(child(child(project, 'dependencyManagement'), 'dependencies'), 'dependency'))
    managed.set(`${textOf(d, 'groupId')}:${textOf(d, 'artifactId')}`, resolve(textOf(d, 'version')));
  const out: LockedPackage[] = [];
  const add = (e: El | undefined) => {
    const group = resolve(textOf(e, 'groupId'));
    const artifact = resolve(textOf(e, 'artifactId'));
    if (!group || !artifact) return;
    const name = `${group}:${artifact}`;
    const version = resolve(textOf(e, 'version')) || managed.get(name) || '';
    out.push({ ecosystem: 'maven', name, version: version.includes('${') ? '' : version, direct: true });
  };
  if (parent) add(parent);
  for (const d of childrenOf(child(project, 'dependencies'), 'dependency')) add(d);
  return out;
}
