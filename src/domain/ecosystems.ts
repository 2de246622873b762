/** The package registries whose lockfiles a project can hold (projects/lockfiles/). */
export const ECOSYSTEMS = ['npm', 'pypi', 'go', 'cargo', 'maven', 'rubygems'] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];
