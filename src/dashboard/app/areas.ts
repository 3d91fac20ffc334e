/**
 * Every page area: src/dashboard/pages/<area>/routes.tsx exports `area` (see types.ts). Found by
 * import.meta.glob at build time, so a new area adds its folder and touches no shared file.
 */
import type { NavItem, PageArea } from './types';

const modules = import.meta.glob<{ area: PageArea }>('../pages/*/routes.tsx', { eager: true });

export const areas: PageArea[] = Object.values(modules).map((m) => m.area);

export const navItems: NavItem[] = areas.flatMap((a) => a.nav ?? []).sort((a, b) => a.order - b.order);
