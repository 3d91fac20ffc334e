/**
 * The stop words of the major corpus languages, already accent-folded: the analysis pipeline
 * drops them (text-analysis.ts) and the language detection counts them as votes
 * (language-detection.ts). Changing them changes the indexed terms: bump ANALYSIS_VERSION.
 */

/** Stopwords (already accent-folded) of the major corpus languages. */
const STOPWORDS_SOURCE: Record<string, string> = {
  de: `aber alle allem allen aller alles als also am an andere anderen anderer anderes auch auf aus bei beim bin bis bist
    da dabei damit dann das dass dem den denen denn der deren des dessen die dies diese diesem diesen dieser dieses doch dort
    du durch ein eine einem einen einer eines er es etwas euch fur gegen hat hatte hatten hier ich ihm ihn ihnen ihr ihre
    ihrem ihren ihrer ihres im in indem ins ist jede jedem jeden jeder jedes jene kann kein keine mich mir mit muss nach
    nicht nichts noch nun nur ob oder ohne sehr sein seine seinem seinen seiner seines sich sie sind so soll sollen sondern
    sowie uber um und uns unter vom von vor war waren was weil welche welchem welchen welcher welches wenn werden wie wir
    wird wo wurde wurden zu zum zur zwischen`,
  fr: `a afin ai au aux avec ce ceci cela celle celles celui ces cet cette ceux c d dans de des donc du elle elles en entre
    est et etaient etait etre eu eux il ils j je l la le les leur leurs lui m ma mais me meme mes moi mon n ne ni nos notre
    nous on ont ou par pas pour qu que quel quelle quelles quels qui s sa sans se ses si son sont sous sur t ta te tes toi
    ton tous tout toute toutes tu un une vos votre vous y`,
  en: `a about above after all also an and any are as at be been before being between both but by can could did do does
    doing down during each for from had has have having he her here hers him his how i if in into is it its itself me more
    most my no nor not of off on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were what when where which
    while who whom why will with would you your`,
  it: `a ad agli ai al alla alle allo all anche avere c che chi ci coi col come con contro cui da dagli dai dal dalla dalle
    dall dei del della delle dello dell di dove e ed gli ha hanno i il in l la le lo loro ma negli nei nel nella nelle
    nello nell non o per piu quale quali quando quella quelle quello questa queste questo se si sia sono su sua sue sugli
    sui sul sulla sulle sull suo suoi tra un una uno`,
  es: `a al algo ante como con contra cual cuando de del desde donde e el ella ellas ellos en entre era es esa esas ese eso
    esos esta estas este esto estos fue ha han hasta la las le les lo los mas me mi mis muy ni no nos o para pero por que
    quien se sea ser si sin sobre son su sus te tiene todo todos tu u un una unas uno unos y ya`,
  nl: `aan al alle als bij dan dat de deze die dit door een en er had heb hebben heeft het hier hij hoe hun ik in is je kan
    maar me meer men met mij mijn na naar niet nog nu of om omdat ons onder ook op over te tegen toe tot uit van veel voor
    want was wat we wel werd wie wij worden wordt zal ze zich zij zijn zo zonder`,
  pt: `a ao aos as com como da das de dela dele deles do dos e ela elas ele eles em entre era essa esse esta este eu foi ha
    isso isto ja lhe mais mas me mesmo meu na nao nas nem no nos o os ou para pela pelas pelo pelos por qual quando que
    quem se sem ser seu seus sua suas tambem te tem um uma umas uns`,
};

export const STOPWORDS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(STOPWORDS_SOURCE).map(([lang, words]) => [lang, new Set(words.split(/\s+/).filter(Boolean))]),
);
