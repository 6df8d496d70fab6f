"""The big Catan event's words on paper (`rules/catan_big/paper.py` names these keys): a board's
setup sheet (the seats, the start areas, the robbers by turn, the scoring table, who wins) and
the score sheets' and standings' columns. The ruleset gives them to the printouts
(`Ruleset.paper_words`); plain data."""

from __future__ import annotations

PAPER_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "catan_board": "Printed board {board}",
        "catan_sun_seat": "Sun: {player}, playing {colour}",
        "catan_moon_seat": "Moon: {player}, playing {colour}",
        "catan_teams": "The Sun team plays the odd turns (turn 1 first), the Moon team the even "
                       "turns; the hall screen shows whose turn it is.",
        "catan_start_areas": "Start areas",
        "catan_start_area": "The dividing line splits the board in two: a player's start area "
                            "is the half with their start points.",
        "catan_start_settlements": "Each player starts with {n} settlements on the marked start "
                                   "points: one gets a ship, one a road (as marked), the third "
                                   "nothing more.",
        "catan_start_resources": "Each player takes the resources of the land around one of "
                                 "their settlements, then turns one settlement into a city.",
        "catan_robbers_start": "The {n} robbers start on the board's two deserts.",
        "catan_no_monopoly": "Take the Monopoly cards out of the development cards.",
        "catan_robber_rule": "The robbers, by turn",
        "catan_robber_early": "Turns {first}–{last}: a 7 is a discard check only (a hand of "
                              "{cards} or more cards discards half, rounded down); the robbers "
                              "stay.",
        "catan_robber_late": "From turn {first}: a 7 is the discard check, then the hall rolls "
                             "again for the robbers:",
        "catan_robber_numbers": "3 to 11: the robber of each start area moves to the tile with "
                                "that number;",
        "catan_robber_lone": "{low} or {high}: one robber goes to that tile, the other stays on "
                             "(or goes back to) its desert;",
        "catan_robber_home": "another 7: every robber goes home to its desert. A robber already "
                             "on the chosen tile stays.",
        "catan_no_steal": "No card is stolen when the robbers move.",
        "catan_scoring": "Scoring",
        "catan_foreign_bonus": "Only the first settlement in each start area of another player "
                               "(the other one on this board, two on each neighbouring board: "
                               "five areas) scores 2 more; a second one in the same area earns "
                               "nothing more. The bonus stays when it becomes a city.",
        "catan_scores": "What scores",
        "catan_each": "Points each",
        "catan_at_most": "At most",
        "catan_most_points": "Most points",
        "catan_win": "{n} points win: claim on your phone in your team's turn; the staff check "
                     "the claim at the board.",
        "catan_game_ends": "The game ends at the end of the turn in which the staff verify a "
                           "claim.",
        "catan_tie_breaks": "Several verified claims in that turn: the most points win, then "
                            "the most cards in hand, then the most grain, ore, brick, wood, "
                            "wool, then the earlier registration.",
        "settlements": "Settlements",
        "cities": "Cities",
        "foreign_start_settlements": "Settlements in another's start area",
        "vp_cards": "Victory point cards",
        "largest_army": "Largest army",
        "longest_road": "Longest road",
        "hand": "Cards in hand",
        "grain": "Grain",
        "ore": "Ore",
        "brick": "Brick",
        "wood": "Wood",
        "wool": "Wool",
        "role_sun": "Sun",
        "role_moon": "Moon",
    },
    "nl": {
        "catan_board": "Gedrukt bord {board}",
        "catan_sun_seat": "Zon: {player}, speelt {colour}",
        "catan_moon_seat": "Maan: {player}, speelt {colour}",
        "catan_teams": "Het Zon-team speelt de oneven beurten (beurt 1 eerst), het Maan-team de "
                       "even beurten; het zaalscherm toont wie aan de beurt is.",
        "catan_start_areas": "Startgebieden",
        "catan_start_area": "De scheidslijn deelt het bord in tweeën: het startgebied van een "
                            "speler is de helft met zijn startpunten.",
        "catan_start_settlements": "Iedere speler begint met {n} dorpen op de gemarkeerde "
                                   "startpunten: één krijgt een schip, één een straat (zoals "
                                   "aangegeven), de derde niets.",
        "catan_start_resources": "Iedere speler neemt de grondstoffen van het land rond een van "
                                 "zijn dorpen en maakt daarna van één dorp een stad.",
        "catan_robbers_start": "De {n} rovers beginnen op de twee woestijnen van het bord.",
        "catan_no_monopoly": "Haal de monopoliekaarten uit de ontwikkelingskaarten.",
        "catan_robber_rule": "De rovers, per beurt",
        "catan_robber_early": "Beurten {first}–{last}: een 7 is alleen een kaartencontrole (wie "
                              "{cards} of meer kaarten heeft, legt de helft af, naar beneden "
                              "afgerond); de rovers blijven staan.",
        "catan_robber_late": "Vanaf beurt {first}: een 7 is de kaartencontrole, daarna gooit de "
                             "zaal opnieuw voor de rovers:",
        "catan_robber_numbers": "3 tot en met 11: de rover van elk startgebied gaat naar het "
                                "veld met dat getal;",
        "catan_robber_lone": "{low} of {high}: één rover gaat naar dat veld, de andere blijft op "
                             "(of keert terug naar) zijn woestijn;",
        "catan_robber_home": "weer een 7: alle rovers gaan terug naar hun woestijn. Een rover "
                             "die al op het gekozen veld staat, blijft daar.",
        "catan_no_steal": "Er wordt geen kaart gestolen als de rovers verplaatsen.",
        "catan_scoring": "Puntentelling",
        "catan_foreign_bonus": "Alleen het eerste dorp in elk startgebied van een ander (de "
                               "ander op dit bord, twee op elk buurbord: vijf gebieden) telt 2 "
                               "punten extra; een tweede dorp in hetzelfde gebied levert niets "
                               "meer op. De bonus blijft als het een stad wordt.",
        "catan_scores": "Wat telt",
        "catan_each": "Punten per stuk",
        "catan_at_most": "Hoogstens",
        "catan_most_points": "Hoogstens punten",
        "catan_win": "Met {n} punten win je: meld het op je telefoon in de beurt van je team; de "
                     "staf controleert de melding aan het bord.",
        "catan_game_ends": "Het spel eindigt aan het eind van de beurt waarin de staf een "
                           "melding goedkeurt.",
        "catan_tie_breaks": "Meerdere goedgekeurde meldingen in die beurt: de meeste punten "
                            "winnen, dan de meeste kaarten in de hand, dan het meeste graan, "
                            "erts, leem, hout, wol, dan wie zich het eerst inschreef.",
        "settlements": "Dorpen",
        "cities": "Steden",
        "foreign_start_settlements": "Dorpen in het startgebied van een ander",
        "vp_cards": "Overwinningspuntkaarten",
        "largest_army": "Grootste riddermacht",
        "longest_road": "Langste handelsroute",
        "hand": "Kaarten in de hand",
        "grain": "Graan",
        "ore": "Erts",
        "brick": "Leem",
        "wood": "Hout",
        "wool": "Wol",
        "role_sun": "Zon",
        "role_moon": "Maan",
    },
    "he": {
        "catan_board": "לוח מודפס {board}",
        "catan_sun_seat": "שמש: {player}, בצבע {colour}",
        "catan_moon_seat": "ירח: {player}, בצבע {colour}",
        "catan_teams": "קבוצת השמש משחקת בתורות האי-זוגיים (מתחילה בתור 1), קבוצת הירח בתורות "
                       "הזוגיים; מסך האולם מראה של מי התור.",
        "catan_start_areas": "שטחי ההתחלה",
        "catan_start_area": "קו ההפרדה מחלק את הלוח לשניים: שטח ההתחלה של שחקן הוא החצי שבו "
                            "נקודות ההתחלה שלו.",
        "catan_start_settlements": "כל שחקן מתחיל עם {n} יישובים בנקודות המסומנות: יישוב אחד "
                                   "מקבל סירה, יישוב אחד דרך (כמסומן), והשלישי לא מקבל דבר.",
        "catan_start_resources": "כל שחקן לוקח את קלפי המשאבים של חבלי הארץ סביב אחד מיישוביו, "
                                 "ואז מחליף יישוב אחד בעיר.",
        "catan_robbers_start": "{n} השודדים מתחילים על שני אריחי המדבר של הלוח.",
        "catan_no_monopoly": "מוציאים את קלפי המונופול מחפיסת קלפי הפיתוח.",
        "catan_robber_rule": "השודדים, לפי התור",
        "catan_robber_early": "תורות {first}-{last}: ב-7 רק בודקים קלפים (מי שיש בידו {cards} "
                              "קלפים או יותר זורק חצי, מעוגל כלפי מטה); השודדים לא זזים.",
        "catan_robber_late": "מתור {first}: ב-7 בודקים קלפים, ואז האולם מטיל שוב בשביל "
                             "השודדים:",
        "catan_robber_numbers": "3 עד 11: השודד של כל שטח התחלה עובר לאריח עם המספר הזה;",
        "catan_robber_lone": "{low} או {high}: שודד אחד עובר לאריח הזה, והשני נשאר על המדבר שלו "
                             "(או חוזר אליו);",
        "catan_robber_home": "עוד 7: כל השודדים חוזרים למדבר שלהם. שודד שכבר נמצא על האריח "
                             "שנבחר נשאר שם.",
        "catan_no_steal": "כשהשודדים זזים, לא לוקחים קלף מאף שחקן.",
        "catan_scoring": "ניקוד",
        "catan_foreign_bonus": "רק היישוב הראשון בכל שטח התחלה של שחקן אחר (של השחקן השני בלוח "
                               "הזה, ושניים בכל לוח סמוך: חמישה שטחים) שווה 2 נקודות נוספות; "
                               "יישוב שני באותו שטח לא מוסיף דבר. התוספת נשארת כשהוא הופך לעיר.",
        "catan_scores": "מה מזכה בנקודות",
        "catan_each": "נקודות לכל אחד",
        "catan_at_most": "לכל היותר",
        "catan_most_points": "מקסימום נקודות",
        "catan_win": "{n} נקודות מנצחות: מכריזים בטלפון בתור של הקבוצה שלכם; הצוות בודק את "
                     "ההכרזה ליד הלוח.",
        "catan_game_ends": "המשחק נגמר בסוף התור שבו הצוות אישר הכרזה.",
        "catan_tie_breaks": "כמה הכרזות מאושרות באותו תור: מנצח מי שיש לו הכי הרבה נקודות, אחר "
                            "כך הכי הרבה קלפים ביד, אחר כך הכי הרבה חיטה, ברזל, לבנים, עץ, "
                            "כבשים, ואז מי שנרשם קודם.",
        "settlements": "יישובים",
        "cities": "ערים",
        "foreign_start_settlements": "יישובים בשטח התחלה של אחר",
        "vp_cards": "קלפי נקודת ניצחון",
        "largest_army": "הצבא הגדול ביותר",
        "longest_road": "הדרך הארוכה ביותר",
        "hand": "קלפים ביד",
        "grain": "חיטה",
        "ore": "ברזל",
        "brick": "לבנים",
        "wood": "עץ",
        "wool": "כבשים",
        "role_sun": "שמש",
        "role_moon": "ירח",
    },
}
