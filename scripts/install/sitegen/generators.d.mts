export declare const PYTHON_PACKAGES: string[];
export declare const NPM_PACKAGES: string[];
export declare function sitegenCache(): string;
export declare function generatorInstalls(): { venv: string; npm: string; toolsKey: string };
