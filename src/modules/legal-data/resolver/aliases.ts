/**
 * The maintained alias table: names under which practitioners cite acts that the corpus does
 * not list among an act's `short_names` or title. Each alias names its target by country and
 * either source id or exact title; targets absent from the corpus are ignored when the index is
 * built, so an alias never invents a document. Abbreviations and titles that the corpus itself
 * carries are NOT repeated here: the reference index reads them from the documents.
 */

export interface ActAlias {
  /** The name as cited (matched accent-, case- and punctuation-insensitively). */
  alias: string;
  country: string;
  /** The act's source, `<country>/<source_name>`. */
  source: string;
  /** The act's source id... */
  sourceId?: string;
  /** ...or its exact title, when ids are opaque. */
  title?: string;
  /** Language the alias is written in: picks among language versions of one act (GDPR/DSGVO). */
  language?: string;
}

const FR = (alias: string, title: string): ActAlias => ({ alias, country: 'FR', source: 'FR/LegifranceCodes', title });
const EU = (alias: string, sourceId: string, language?: string): ActAlias => ({ alias, country: 'EU', source: 'EU/EUR-Lex', sourceId, language });
const DE = (alias: string, sourceId: string): ActAlias => ({ alias, country: 'DE', source: 'DE/GesetzeImInternet', sourceId });

export const ACT_ALIASES: ActAlias[] = [
  // French codes: the usual abbreviations of doctrine and case law (Dalloz / Lexis styles).
  FR('C. civ', 'Code civil'),
  FR('Cciv', 'Code civil'),
  FR('C. trav', 'Code du travail'),
  FR('C. du trav.', 'Code du travail'),
  FR('Ctrav', 'Code du travail'),
  FR('C. séc. soc.', 'Code de la sécurité sociale'),
  FR('C. sécu. soc.', 'Code de la sécurité sociale'),
  FR('CSS', 'Code de la sécurité sociale'),
  FR('C. ss', 'Code de la sécurité sociale'),
  FR('C. cons.', 'Code de la consommation'),
  FR('C. consom', 'Code de la consommation'),
  FR('C. conso.', 'Code de la consommation'),
  FR('C. pén', 'Code pénal'),
  FR('C. pr. civ', 'Code de procédure civile'),
  FR('C. proc. civ.', 'Code de procédure civile'),
  FR('NCPC', 'Code de procédure civile'),
  FR('C. assur', 'Code des assurances'),
  FR('C. ass.', 'Code des assurances'),
  FR('C. urb', 'Code de l\'urbanisme'),
  FR('C. rur.', 'Code rural et de la pêche maritime'),
  FR('C. route', 'Code de la route'),
  FR('C. élect', 'Code électoral'),
  FR('C. patr', 'Code du patrimoine'),
  FR('C. sport', 'Code du sport'),
  FR('C. douanes', 'Code des douanes'),
  FR('C. défense', 'Code de la défense'),
  FR('C. énergie', 'Code de l\'énergie'),
  FR('C. tourisme', 'Code du tourisme'),
  FR('C. mut.', 'Code de la mutualité'),
  FR('C. rech.', 'Code de la recherche'),
  FR('C. expr.', 'Code de l\'expropriation pour cause d\'utilité publique'),
  FR('CPCE', 'Code des postes et des communications électroniques'),
  FR('CJF', 'Code des juridictions financières'),
  FR('CPCEx', 'Code des procédures civiles d\'exécution'),
  FR('C. pr. exéc.', 'Code des procédures civiles d\'exécution'),
  FR('C. for.', 'Code forestier (nouveau)'),
  FR('Code forestier', 'Code forestier (nouveau)'),
  FR('Code minier', 'Code minier (nouveau)'),
  FR('C. min.', 'Code minier (nouveau)'),
  FR('C. pénit.', 'Code pénitentiaire'),
  FR('Constitution de 1958', 'Constitution du 4 octobre 1958'),
  FR('C. voirie routière', 'Code de la voirie routière'),
  FR('C. com. publ.', 'Code de la commande publique'),
  FR('C. pr. pén. mineurs', 'Code de la justice pénale des mineurs'),
  // EU: the GDPR in the languages of the corpus's readers; treaties are not in the corpus.
  EU('GDPR', '32016R0679', 'en'),
  EU('General Data Protection Regulation', '32016R0679', 'en'),
  EU('DSGVO', '32016R0679-de', 'de'),
  EU('DS-GVO', '32016R0679-de', 'de'),
  EU('Datenschutz-Grundverordnung', '32016R0679-de', 'de'),
  EU('RGPD', '32016R0679', 'fr'),
  EU('AVG', '32016R0679', 'nl'),
  EU('UCC', '32013R0952', 'en'),
  EU('Brussels I Recast', '32012R1215', 'en'),
  EU('Brüssel Ia-VO', '32012R1215', 'de'),
  EU('EuGVVO', '32012R1215', 'de'),
  EU('Rom I-VO', '32008R0593', 'de'),
  EU('Rom II-VO', '32007R0864', 'de'),
  EU('Produkthaftungsrichtlinie', '31985L0374', 'de'),
  EU('Klausel-RL', '31993L0013', 'de'),
  EU('MwStSystRL', '32006L0112', 'de'),
  EU('Directive TVA', '32006L0112', 'fr'),
  // Germany: common names the gesetze-im-internet abbreviations do not carry.
  DE('Grundgesetz', 'gg'),
  DE('Bürgerliches Gesetzbuch', 'bgb'),
  DE('Strafgesetzbuch', 'stgb'),
  DE('Handelsgesetzbuch', 'hgb'),
  DE('Zivilprozessordnung', 'zpo'),
  DE('Bundesausbildungsförderungsgesetz', 'bafoeg'),
  DE('Bundesdatenschutzgesetz', 'bdsg_2018'),
  DE('Aufenthaltsgesetz', 'aufenthg_2004'),
  // Luxembourg: the Penal Code lives in the 1879 revision act; the Constitution by its adjective.
  { alias: 'Code pénal luxembourgeois', country: 'LU', source: 'LU/Legilux', sourceId: 'leg-loi-1879-06-18-n1' },
  { alias: 'Constitution luxembourgeoise', country: 'LU', source: 'LU/Legilux', sourceId: 'leg-constitution-1868-10-17-n1' },
  { alias: 'Constitution du Luxembourg', country: 'LU', source: 'LU/Legilux', sourceId: 'leg-constitution-1868-10-17-n1' },
  // Switzerland: the Federal Constitution by its German, French and Italian names.
  { alias: 'Bundesverfassung', country: 'CH', source: 'CH/Fedlex', sourceId: 'cc-1999-404' },
  { alias: 'Constitution fédérale', country: 'CH', source: 'CH/Fedlex', sourceId: 'cc-1999-404' },
];
