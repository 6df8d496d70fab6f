"""A Legacy campaign's words on paper (`rules/legacy/paper.py` names these keys): a game's setup
sheet (its number, the start player, each city's landmarks by letter and town-square cards, the
community landmark) and the campaign's register sheet (the group, the city register). The
ruleset gives them to the printouts (`Ruleset.paper_words`); plain data. The rule book's own
Dutch words: stadsregister, stadspleinkaarten, gemeenschappelijke bezienswaardigheid,
startspeler."""

from __future__ import annotations

PAPER_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "legacy_game_n": "Game {n} of the campaign",
        "legacy_first_player": "Start player: {player}",
        "legacy_landmarks_face_down": "{n} landmarks, face down on the city tableau, left to "
                                      "right by letter (under the cities below)",
        "legacy_town_square_note": "the town-square cards each player chose (under the cities "
                                   "below), face up, in activation order",
        "legacy_cities": "The cities",
        "legacy_seat": "{player}",
        "legacy_landmark": "{letter} · {card} · costs {cost}",
        "legacy_town_square": "Town square: {cards}",
        "legacy_community_heading": "Community landmark",
        "legacy_community": "{card} · contribution {cost} coins: face up beside the supply; "
                            "each player may contribute once per game, as their action",
        "legacy_bonus_coins": "Bonus: whoever contributes takes {n} coins from the bank.",
        "legacy_bonus_text": "Bonus (played by hand): {text}",
        "legacy_win": "The first to build their three landmarks and to contribute wins.",
        "contributed": "Contributed",
        "legacy_games_played": "{done} of {total} games recorded",
        "legacy_group": "The group",
        "legacy_city": "City",
        "legacy_register": "City register",
        "legacy_game": "Game",
        "legacy_date": "Date",
        "legacy_winner": "Winner",
        "legacy_register_note": "The winner of each game writes the date, their name and "
                                "their city's name on the game's line.",
    },
    "nl": {
        "legacy_game_n": "Spel {n} van de campagne",
        "legacy_first_player": "Startspeler: {player}",
        "legacy_landmarks_face_down": "{n} bezienswaardigheden, gedekt op het stadstableau, van "
                                      "links naar rechts op lettercode (bij de steden hieronder)",
        "legacy_town_square_note": "de stadspleinkaarten die iedere speler koos (bij de steden "
                                   "hieronder), open, op activeringsnummer",
        "legacy_cities": "De steden",
        "legacy_seat": "{player}",
        "legacy_landmark": "{letter} · {card} · kost {cost}",
        "legacy_town_square": "Stadsplein: {cards}",
        "legacy_community_heading": "Gemeenschappelijke bezienswaardigheid",
        "legacy_community": "{card} · bijdrage {cost} munten: open naast de voorraad; iedere "
                            "speler mag één keer per spel bijdragen, als zijn actie",
        "legacy_bonus_coins": "Bonus: wie bijdraagt, krijgt {n} munten uit de bank.",
        "legacy_bonus_text": "Bonus (met de hand): {text}",
        "legacy_win": "Wie als eerste zijn drie bezienswaardigheden bouwt en bijdraagt, wint.",
        "contributed": "Bijgedragen",
        "legacy_games_played": "{done} van {total} spellen ingevuld",
        "legacy_group": "De groep",
        "legacy_city": "Stad",
        "legacy_register": "Stadsregister",
        "legacy_game": "Spel",
        "legacy_date": "Datum",
        "legacy_winner": "Winnaar",
        "legacy_register_note": "De winnaar van elk spel vult op de regel van dat spel de "
                                "datum, zijn naam en de naam van zijn stad in.",
    },
    "he": {
        "legacy_game_n": "משחק {n} במערכה",
        "legacy_first_player": "מתחיל: {player}",
        "legacy_landmarks_face_down": "{n} ציוני דרך, הפוכים על לוח העיר, משמאל לימין לפי "
                                      "האות (ליד הערים למטה)",
        "legacy_town_square_note": "קלפי כיכר העיר שכל שחקן בחר (ליד הערים למטה), גלויים, "
                                   "לפי מספר ההפעלה",
        "legacy_cities": "הערים",
        "legacy_seat": "{player}",
        "legacy_landmark": "{letter} · {card} · מחיר {cost}",
        "legacy_town_square": "כיכר העיר: {cards}",
        "legacy_community_heading": "ציון הדרך הקהילתי",
        "legacy_community": "{card} · תרומה של {cost} מטבעות: גלוי ליד ערימות הקלפים; כל שחקן "
                            "רשאי לתרום פעם אחת במשחק, כפעולה שלו",
        "legacy_bonus_coins": "בונוס: מי שתורם מקבל {n} מטבעות מהבנק.",
        "legacy_bonus_text": "בונוס (ביד): {text}",
        "legacy_win": "הראשון שבונה את שלושת ציוני הדרך שלו ותורם – מנצח.",
        "contributed": "תרם",
        "legacy_games_played": "{done} מתוך {total} משחקים נרשמו",
        "legacy_group": "הקבוצה",
        "legacy_city": "עיר",
        "legacy_register": "פנקס העיר",
        "legacy_game": "משחק",
        "legacy_date": "תאריך",
        "legacy_winner": "מנצח",
        "legacy_register_note": "המנצח בכל משחק רושם בשורה של אותו משחק את התאריך, את שמו "
                                "ואת שם העיר שלו.",
    },
}
