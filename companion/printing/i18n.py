"""Every fixed string the printouts show, one small dict per language, and the words a game's
paper names that the hall adds (`add_words`: each ruleset's `paper_words`; card names come from
the catalog, in the model)."""

from __future__ import annotations

from collections.abc import Mapping

Lang = str

STRINGS: dict[Lang, dict[str, str]] = {
    "en": {
        "join_cards_title": "Join cards",
        "seat": "Seat",
        "table": "Table",
        "player": "Player",
        "name_blank": "Name:",
        "scan_to_join": "Scan to join your seat",
        "or_type": "Or type:",
        "wifi": "Wi-Fi",
        "wifi_hint": "Scan to join the hall network",
        "network": "Network:",
        "password": "Password:",
        "poster_join": "Scan to join the game",
        "poster_hall": "Hall screen",
        "setup_title": "Table setup",
        "seats": "Seats",
        "each_player_takes": "Each player takes",
        "coins_n": "{n} coins",
        "landmarks_face_down": "the {n} landmarks, face down:",
        "landmark_built_at_start": "{card}, face up: built from the start",
        "n_of": "{n} × {card}",
        "card_cost": "◦ {card} ({cost})",
        "supply": "Supply, in activation order",
        "roll": "Roll",
        "card": "Card",
        "cost": "Cost",
        "count": "Count",
        "back_in_box": "Back in the box",
        "nothing_back": "Nothing: every seat plays.",
        "landmark_sets_n": "{n} × set of landmarks",
        "bank_left": "Bank: {n} coins stay in the bank.",
        "variants": "Variants",
        "variant_play_on": "Play on after a win: the others play on for the next places.",
        "variant_variable_supply": "Variable supply: ten kinds face up, drawn from a shuffled pile "
                                   "(the phones show them).",
        "variable_supply_removed": "Out of the game before the shuffle: {n} × {card}",
        "unknown_ruleset": "No setup sheet for ruleset {name}.",
        "results_title": "Table result",
        "results_in_play_title": "Scores so far",
        "in_progress": "In progress · printed {time} · not the final result",
        "results_in_play_note": "The scores as they stood when this was printed; the places "
                                "are decided when the game is over. Print this sheet again "
                                "then, to sign it.",
        "results_not_started_note": "Printed {time}, before the game started: fill in the "
                                    "places and the scores by hand when it is over.",
        "place": "Place",
        "landmarks": "Landmarks built",
        "coins": "Coins",
        "signature": "Signature",
        "standings_title": "Standings",
        "standings_partial": "Standings: {done} of {total} tables finished",
        "standings_in_progress": "In progress · printed {time} · not the final standings",
        "standings_in_play_note": "* still playing: ranked by their scores as they stood when "
                                  "this was printed.",
        "rank": "Rank",
        "wins": "Wins",
        # tournaments (printing/tournament.py)
        "points": "Points",
        "start_position": "Start",
        "round_n": "Round {n}",
        "semi_final": "Semi-final",
        "final": "Final",
        "seating_by_table": "{round}: seating by table",
        "seating_by_name": "{round}: seating by name",
        "standings_after": "Standings after {round}",
        "standings_before": "Standings before the first round",
        "standings_final": "Final standings",
        "stage": "Stage",
        "preliminaries": "Preliminaries",
        "final_winner": "Winner: {name}. The final's places come first, then the rank of the "
                        "round each player left.",
        "played_tables": "Tables",
        "player_card": "Your tournament card",
        "player_card_hint": "Scan at every round: it takes you to your table",
        # the co-op Tax Assessor's setup sheet (rules/coop/paper.py)
        "coop_title": "The Tax Assessor (co-op)",
        "coop_seating": "Play order: {first}, then {second}, then the Tax Assessor. {first} starts.",
        "coop_deck": "The assessor's deck: the {n} cards of the Assessor column, shuffled, face down",
        "coop_coins": "{n} coins from the bank beside the assessor",
        "coop_market_deck": "The market deck: the {n} cards of the Market column, shuffled, face "
                            "down; four face up in a row",
        "coop_assessor": "Assessor",
        "coop_market": "Market",
        "coop_market_note": "No supply piles: players buy only from the row. A turn without a "
                            "purchase discards the rightmost card; the row refills to four.",
        # any ruleset's sheets: a chain's neighbours, the event's turn times, the staff's check
        "neighbour_left": "Left neighbour: {name}",
        "neighbour_right": "Right neighbour: {name}",
        "chain_end": "none (end of the row)",
        "turn_times": "Turn times",
        "turns_range": "turns {first}–{last}: {seconds} s",
        "turn_single": "turn {first}: {seconds} s",
        "turns_from": "from turn {first}: {seconds} s",
        "tie_breaks": "Tie-breaks",
        "staff_check": "Checked by the staff",
        "staff_name": "Name",
        "unverified_note": "† not verified by the staff: the player's own count.",
    },
    "nl": {
        "join_cards_title": "Aanmeldkaarten",
        "seat": "Stoel",
        "table": "Tafel",
        "player": "Speler",
        "name_blank": "Naam:",
        "scan_to_join": "Scan om je plaats in te nemen",
        "or_type": "Of typ:",
        "wifi": "Wi-Fi",
        "wifi_hint": "Scan voor het netwerk van de zaal",
        "network": "Netwerk:",
        "password": "Wachtwoord:",
        "poster_join": "Scan om mee te spelen",
        "poster_hall": "Zaalscherm",
        "setup_title": "Tafel klaarzetten",
        "seats": "Stoelen",
        "each_player_takes": "Iedere speler neemt",
        "coins_n": "{n} munten",
        "landmarks_face_down": "de {n} bezienswaardigheden, gesloten:",
        "landmark_built_at_start": "{card}, open: vanaf het begin gebouwd",
        "n_of": "{n} × {card}",
        "card_cost": "◦ {card} ({cost})",
        "supply": "Voorraad, op activeringsgetal",
        "roll": "Worp",
        "card": "Kaart",
        "cost": "Kosten",
        "count": "Aantal",
        "back_in_box": "Terug in de doos",
        "nothing_back": "Niets: alle stoelen spelen.",
        "landmark_sets_n": "{n} × set bezienswaardigheden",
        "bank_left": "Bank: {n} munten blijven in de bank.",
        "variants": "Varianten",
        "variant_play_on": "Doorspelen na een zege: de anderen spelen door voor de volgende "
                           "plaatsen.",
        "variant_variable_supply": "Wisselende voorraad: tien soorten open, getrokken van een "
                                   "geschudde stapel (de telefoons tonen ze).",
        "variable_supply_removed": "Uit het spel voor het schudden: {n} × {card}",
        "unknown_ruleset": "Geen opzetblad voor spelregels {name}.",
        "results_title": "Uitslag van de tafel",
        "results_in_play_title": "Tussenstand",
        "in_progress": "Nog bezig · afgedrukt {time} · niet de uitslag",
        "results_in_play_note": "De scores zoals ze stonden bij het afdrukken; de plaatsen "
                                "worden bepaald als het spel voorbij is. Druk dit blad dan "
                                "opnieuw af om te tekenen.",
        "results_not_started_note": "Afgedrukt {time}, voor het begin van het spel: vul de "
                                    "plaatsen en de scores met de hand in als het spel voorbij "
                                    "is.",
        "place": "Plaats",
        "landmarks": "Bezienswaardigheden",
        "coins": "Munten",
        "signature": "Handtekening",
        "standings_title": "Stand",
        "standings_partial": "Stand: {done} van {total} tafels klaar",
        "standings_in_progress": "Nog bezig · afgedrukt {time} · niet de eindstand",
        "standings_in_play_note": "* speelt nog: gerangschikt op hun scores bij het "
                                  "afdrukken.",
        "rank": "Rang",
        "wins": "Zeges",
        "points": "Punten",
        "start_position": "Start",
        "round_n": "Ronde {n}",
        "semi_final": "Halve finale",
        "final": "Finale",
        "seating_by_table": "{round}: indeling per tafel",
        "seating_by_name": "{round}: indeling op naam",
        "standings_after": "Stand na {round}",
        "standings_before": "Stand voor de eerste ronde",
        "standings_final": "Eindstand",
        "stage": "Fase",
        "preliminaries": "Voorrondes",
        "final_winner": "Winnaar: {name}. Eerst de plaatsen van de finale, dan de rang uit de "
                        "ronde waarin ieder afviel.",
        "played_tables": "Tafels",
        "player_card": "Je toernooikaart",
        "player_card_hint": "Scan elke ronde: zo kom je aan je tafel",
        # the co-op Tax Assessor's setup sheet (rules/coop/paper.py)
        "coop_title": "De belastinginspecteur (coöperatief)",
        "coop_seating": "Speelvolgorde: {first}, dan {second}, dan de belastinginspecteur. "
                        "{first} begint.",
        "coop_deck": "De stapel van de inspecteur: de {n} kaarten van de kolom Inspecteur, "
                     "geschud, gedekt",
        "coop_coins": "{n} munten uit de bank naast de inspecteur",
        "coop_market_deck": "De marktstapel: de {n} kaarten van de kolom Markt, geschud, gedekt; "
                            "vier open op een rij",
        "coop_assessor": "Inspecteur",
        "coop_market": "Markt",
        "coop_market_note": "Geen voorraadstapels: spelers kopen alleen uit de rij. Een beurt "
                            "zonder aankoop legt de meest rechtse kaart af; de rij wordt weer "
                            "aangevuld tot vier.",
        "neighbour_left": "Buur links: {name}",
        "neighbour_right": "Buur rechts: {name}",
        "chain_end": "geen (einde van de rij)",
        "turn_times": "Beurttijden",
        "turns_range": "beurten {first}–{last}: {seconds} s",
        "turn_single": "beurt {first}: {seconds} s",
        "turns_from": "vanaf beurt {first}: {seconds} s",
        "tie_breaks": "Bij gelijke stand",
        "staff_check": "Gecontroleerd door de staf",
        "staff_name": "Naam",
        "unverified_note": "† niet gecontroleerd door de staf: de eigen telling van de speler.",
    },
    "he": {
        "join_cards_title": "כרטיסי הצטרפות",
        "seat": "כיסא",
        "table": "שולחן",
        "player": "שחקן",
        "name_blank": "שם:",
        "scan_to_join": "סרקו כדי לתפוס את המקום",
        "or_type": "או הקלידו:",
        "wifi": "Wi-Fi",
        "wifi_hint": "סרקו כדי להתחבר לרשת האולם",
        "network": "רשת:",
        "password": "סיסמה:",
        "poster_join": "סרקו כדי להצטרף למשחק",
        "poster_hall": "מסך האולם",
        "setup_title": "הכנת השולחן",
        "seats": "כיסאות",
        "each_player_takes": "כל שחקן לוקח",
        "coins_n": "{n} מטבעות",
        "landmarks_face_down": "{n} ציוני הדרך, הפוכים:",
        "landmark_built_at_start": "{card}, גלוי: בנוי מההתחלה",
        "n_of": "{n} × {card}",
        "card_cost": "◦ {card} ({cost})",
        "supply": "ערימות הקלפים, לפי מספר ההפעלה",
        "roll": "הטלה",
        "card": "קלף",
        "cost": "מחיר",
        "count": "כמות",
        "back_in_box": "חוזר לקופסה",
        "nothing_back": "כלום: כל הכיסאות משחקים.",
        "landmark_sets_n": "{n} × סט ציוני דרך",
        "bank_left": "בנק: {n} מטבעות נשארים בבנק.",
        "variants": "וריאנטים",
        "variant_play_on": "ממשיכים אחרי ניצחון: האחרים ממשיכים לשחק על המקומות הבאים.",
        "variant_variable_supply": "היצע משתנה: עשרה סוגים גלויים, נשלפים מערימה מעורבבת "
                                   "(הטלפונים מראים אותם).",
        "variable_supply_removed": "מחוץ למשחק לפני הערבוב: {n} × {card}",
        "unknown_ruleset": "אין דף הכנה לחוקים {name}.",
        "results_title": "תוצאות השולחן",
        "results_in_play_title": "תוצאות ביניים",
        "in_progress": "המשחק עדיין נמשך · הודפס {time} · זו לא התוצאה הסופית",
        "results_in_play_note": "הניקוד כפי שהיה בזמן ההדפסה; המקומות נקבעים כשהמשחק נגמר. "
                                "אז הדפיסו את הדף שוב כדי לחתום עליו.",
        "results_not_started_note": "הודפס {time}, לפני שהמשחק התחיל: ממלאים ביד את המקומות "
                                    "ואת הניקוד כשהמשחק נגמר.",
        "place": "מקום",
        "landmarks": "ציוני דרך שנבנו",
        "coins": "מטבעות",
        "signature": "חתימה",
        "standings_title": "טבלת הדירוג",
        "standings_partial": "טבלת הדירוג: {done} מתוך {total} שולחנות סיימו",
        "standings_in_progress": "האירוע עדיין נמשך · הודפס {time} · זה לא הדירוג הסופי",
        "standings_in_play_note": "* עדיין משחקים: מדורגים לפי הניקוד שהיה להם בזמן "
                                  "ההדפסה.",
        "rank": "דירוג",
        "wins": "ניצחונות",
        "points": "נקודות",
        "start_position": "סדר",
        "round_n": "סבב {n}",
        "semi_final": "חצי גמר",
        "final": "גמר",
        "seating_by_table": "{round}: הושבה לפי שולחן",
        "seating_by_name": "{round}: הושבה לפי שם",
        "standings_after": "דירוג אחרי {round}",
        "standings_before": "דירוג לפני הסבב הראשון",
        "standings_final": "דירוג סופי",
        "stage": "שלב",
        "preliminaries": "מוקדמות",
        "final_winner": "מנצח/ת: {name}. קודם המקומות בגמר, אחר כך הדירוג מהסבב שבו כל שחקן/ית יצא/ה.",
        "played_tables": "שולחנות",
        "player_card": "כרטיס הטורניר שלך",
        "player_card_hint": "סרקו בכל סבב: הכרטיס מוביל לשולחן שלכם",
        # the co-op Tax Assessor's setup sheet (rules/coop/paper.py)
        "coop_title": "גובה המסים (משחק שיתופי)",
        "coop_seating": "סדר התורות: {first}, אחריו {second}, ואחריהם גובה המסים. "
                        "התור הראשון: {first}.",
        "coop_deck": "החפיסה של גובה המסים: {n} הקלפים שבעמודה 'גובה המסים', מעורבבים, "
                     "עם הפנים למטה",
        "coop_coins": "{n} מטבעות מהבנק ליד גובה המסים",
        "coop_market_deck": "חפיסת השוק: {n} הקלפים שבעמודה 'שוק', מעורבבים, עם הפנים למטה; "
                            "ארבעה גלויים בשורה",
        "coop_assessor": "גובה המסים",
        "coop_market": "שוק",
        "coop_market_note": "אין ערימות אספקה: קונים רק מהשורה. בתור בלי קנייה הקלף הימני ביותר "
                            "יוצא מהשורה; השורה מתמלאת שוב לארבעה.",
        "neighbour_left": "השכן משמאל: {name}",
        "neighbour_right": "השכן מימין: {name}",
        "chain_end": "אין (סוף השורה)",
        "turn_times": "זמני התורות",
        "turns_range": "תורות {first}-{last}: {seconds} שניות",
        "turn_single": "תור {first}: {seconds} שניות",
        "turns_from": "מתור {first}: {seconds} שניות",
        "tie_breaks": "שוברי שוויון",
        "staff_check": "נבדק על ידי הצוות",
        "staff_name": "שם",
        "unverified_note": "† לא נבדק על ידי הצוות: הספירה של השחקן עצמו.",
    },
}

# Words any series' sheet may use (series_sheets.py) and the colours of seats and chips.
SERIES_AND_COLOURS: dict[Lang, dict[str, str]] = {
    "en": {
        "series_title": "Campaign",
        "unknown_series": "No register sheet for ruleset {name}.",
        "no_series": "This event has no campaign yet.",
        "colour": "Colour",
        "colour_red": "red",
        "colour_blue": "blue",
        "colour_green": "green",
        "colour_yellow": "yellow",
        "colour_orange": "orange",
        "colour_purple": "purple",
        "colour_white": "white",
        "colour_black": "black",
    },
    "nl": {
        "series_title": "Campagne",
        "unknown_series": "Geen registerblad voor spelregels {name}.",
        "no_series": "Dit evenement heeft nog geen campagne.",
        "colour": "Kleur",
        "colour_red": "rood",
        "colour_blue": "blauw",
        "colour_green": "groen",
        "colour_yellow": "geel",
        "colour_orange": "oranje",
        "colour_purple": "paars",
        "colour_white": "wit",
        "colour_black": "zwart",
    },
    "he": {
        "series_title": "מערכה",
        "unknown_series": "אין דף רישום לחוקים {name}.",
        "no_series": "לאירוע הזה אין עדיין מערכה.",
        "colour": "צבע",
        "colour_red": "אדום",
        "colour_blue": "כחול",
        "colour_green": "ירוק",
        "colour_yellow": "צהוב",
        "colour_orange": "כתום",
        "colour_purple": "סגול",
        "colour_white": "לבן",
        "colour_black": "שחור",
    },
}


# The morning after (report.py): the night on one page.
REPORT: dict[Lang, dict[str, str]] = {
    "en": {
        "report_title": "The morning after",
        "report_tables": "{done} of {total} tables finished",
        "report_printed": "printed {time}",
        "report_winners": "Winners",
        "report_game": "Game",
        "report_winner": "Winner",
        "report_won": "won",
        "report_lost": "nobody won: the game was lost",
        "report_ended": "ended before a result",
        "report_ended_first": "{names} (first when the organizer ended the game)",
        "report_playing": "still playing",
        "report_placed": "over: the winner played at another table",
        "report_no_tables": "No table played tonight.",
        "report_dice": "The hall's dice against fair dice",
        "report_no_rolls": "No hall roll tonight: every table rolled its own dice.",
        "report_dice_line": "Hall rolls: {rolls}, doubles among them: {doubles} (fair dice: "
                            "{fair_doubles}).",
        "report_dice_most": "Most above fair: {total}, rolled {count} times (fair dice: {fair}).",
        "report_legend_hall": "rolled in the hall",
        "report_legend_fair": "fair dice, as many rolls",
        "report_games": "Games",
        "report_longest": "Longest game: {table}, {game}: {time}",
        "report_shortest": "Shortest game: {table}, {game}: {time}",
        "report_no_lengths": "No game was finished.",
        "report_minutes": "{m} min",
        "report_hours": "{h} h {m} min",
        "report_corrections": "Corrections by the organizer and the staff: {n}",
        "report_undos": "Moves undone at tables: {moves} · hall rolls taken back: {rolls}",
        "report_no_standings": "Nobody has played yet.",
        "report_more_players": "… and {n} more players: the standings sheet lists everyone.",
    },
    "nl": {
        "report_title": "De ochtend erna",
        "report_tables": "{done} van {total} tafels klaar",
        "report_printed": "afgedrukt {time}",
        "report_winners": "Winnaars",
        "report_game": "Spel",
        "report_winner": "Winnaar",
        "report_won": "gewonnen",
        "report_lost": "niemand won: het spel is verloren",
        "report_ended": "beëindigd voor er een uitslag was",
        "report_ended_first": "{names} (eerste toen de organisator het spel beëindigde)",
        "report_playing": "speelt nog",
        "report_placed": "klaar: de winnaar speelde aan een andere tafel",
        "report_no_tables": "Vanavond speelde geen tafel.",
        "report_dice": "De dobbelstenen van de zaal tegenover eerlijke dobbelstenen",
        "report_no_rolls": "Vanavond geen worp voor de zaal: elke tafel gooide zelf.",
        "report_dice_line": "Worpen voor de zaal: {rolls}, waarvan dubbel: {doubles} (eerlijke "
                            "dobbelstenen: {fair_doubles}).",
        "report_dice_most": "Het meest boven eerlijk: {total}, {count} keer gegooid (eerlijke "
                            "dobbelstenen: {fair}).",
        "report_legend_hall": "gegooid in de zaal",
        "report_legend_fair": "eerlijke dobbelstenen, even vaak gegooid",
        "report_games": "Spellen",
        "report_longest": "Langste spel: {table}, {game}: {time}",
        "report_shortest": "Kortste spel: {table}, {game}: {time}",
        "report_no_lengths": "Geen spel is uitgespeeld.",
        "report_minutes": "{m} min",
        "report_hours": "{h} u {m} min",
        "report_corrections": "Correcties door de organisator en de staf: {n}",
        "report_undos": "Zetten teruggedraaid aan tafels: {moves} · zaalworpen teruggenomen: "
                        "{rolls}",
        "report_no_standings": "Er heeft nog niemand gespeeld.",
        "report_more_players": "… en nog {n} spelers: het standblad noemt iedereen.",
    },
    "he": {
        "report_title": "הבוקר שאחרי",
        "report_tables": "{done} מתוך {total} שולחנות סיימו",
        "report_printed": "הודפס {time}",
        "report_winners": "מנצחים",
        "report_game": "משחק",
        "report_winner": "מנצח/ת",
        "report_won": "ניצחון",
        "report_lost": "אף אחד לא ניצח: השחקנים הפסידו",
        "report_ended": "הסתיים לפני שהייתה תוצאה",
        "report_ended_first": "{names} (במקום הראשון כשהמארגן סיים את המשחק)",
        "report_playing": "עדיין משחקים",
        "report_placed": "הסתיים: המנצח/ת שיחק/ה בשולחן אחר",
        "report_no_tables": "אף שולחן לא שיחק הערב.",
        "report_dice": "הקוביות של האולם מול קוביות הוגנות",
        "report_no_rolls": "לא הייתה הטלה של האולם הערב: כל שולחן הטיל בעצמו.",
        "report_dice_line": "הטלות של האולם: {rolls}, מהן דאבל: {doubles} (בקוביות הוגנות: "
                            "{fair_doubles}).",
        "report_dice_most": "הכי הרבה מעל ההוגן: {total}, יצא {count} פעמים (בקוביות הוגנות: "
                            "{fair}).",
        "report_legend_hall": "הוטל באולם",
        "report_legend_fair": "קוביות הוגנות, אותו מספר הטלות",
        "report_games": "משחקים",
        "report_longest": "המשחק הארוך ביותר: {table}, {game}: {time}",
        "report_shortest": "המשחק הקצר ביותר: {table}, {game}: {time}",
        "report_no_lengths": "אף משחק לא הסתיים.",
        "report_minutes": "{m} דקות",
        "report_hours": "{h} שע׳ {m} דק׳",
        "report_corrections": "תיקונים של המארגן והצוות: {n}",
        "report_undos": "מהלכים שבוטלו בשולחנות: {moves} · הטלות אולם שבוטלו: {rolls}",
        "report_no_standings": "אף אחד עוד לא שיחק.",
        "report_more_players": "… ועוד {n} שחקנים: טבלת הדירוג המלאה מונה את כולם.",
    },
}


def add_words(words: Mapping[Lang, Mapping[str, str]]) -> None:
    """Take more words, by language: a game's own (the hall adds each ruleset's, so printing
    knows no game)."""
    for lang, found in words.items():
        STRINGS[lang].update(found)


add_words(SERIES_AND_COLOURS)
add_words(REPORT)

RTL_LANGS = frozenset({"he"})


def text(lang: Lang, key: str, **values: object) -> str:
    """The fixed string `key` in `lang`, with `{name}` fields filled in."""
    if lang not in STRINGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {sorted(STRINGS)}")
    return STRINGS[lang][key].format(**values)


def role_word(lang: Lang, role: str) -> str:
    """A seat's role in `lang` (`role_sun`: Sun, שמש, Zon); the role as it is when no string
    names it, "" for none."""
    key = f"role_{role}"
    return text(lang, key) if role and key in STRINGS.get(lang, {}) else role


def is_rtl(lang: Lang) -> bool:
    """True when pages in `lang` are mirrored: labels on the right, text right-aligned."""
    return lang in RTL_LANGS
