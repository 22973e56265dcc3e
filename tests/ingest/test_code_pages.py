"""Texts in the legacy Windows code pages come out as written, whatever their language.

Each text is saved without a mark of its encoding, as old word processors and mail
programs did; read back it must equal the original, so that it pairs with its UTF-8 copy.
"""

from __future__ import annotations

import pytest

from ndd_desktop.ingest.code_pages import best_page, letter_fit

# (language, code page, text): two sentences of an archivist's note in each language
NOTES = [
    ("French", "cp1252", "Les registres du port ont été conservés à la mairie depuis 1792. Le conservateur a "
                         "déjà vérifié chaque page, mais l'inventaire reste incomplet à cause de l'humidité."),
    ("German", "cp1252", "Die Protokolle der Hafenbehörde wurden im Frühjahr geprüft. Größere Schäden fanden "
                         "sich nur in den Bänden über die Zölle."),
    ("Icelandic", "cp1252", "Fundargerðir hafnarstjórnar voru fluttar í borgarskjalasafnið á síðasta ári. "
                            "Skjalavörðurinn fór yfir hverja bók."),
    ("Polish", "cp1250", "Protokoły komisji portowej przeniesiono do archiwum miejskiego w zeszłym roku. "
                         "Archiwista sprawdził każdą księgę i stwierdził, że brakuje kilku stron."),
    ("Czech", "cp1250", "Zápisy přístavní komise byly loni převezeny do městského archivu. Archivář prošel "
                        "každou knihu a zjistil, že několik stránek chybí."),
    ("Hungarian", "cp1250", "A kikötői bizottság jegyzőkönyveit tavaly átszállították a városi levéltárba. "
                            "A levéltáros minden kötetet átnézett."),
    ("Croatian", "cp1250", "Zapisnici lučke komisije prošle su godine preneseni u gradski arhiv. Arhivist je "
                           "pregledao svaku knjigu i utvrdio da nedostaje nekoliko stranica iz proljeća."),
    ("Romanian", "cp1250", "Procesele verbale ale comisiei portuare au fost mutate anul trecut la arhiva "
                           "oraşului. Arhivistul a verificat fiecare volum şi a constatat că lipsesc pagini."),
    ("Lithuanian", "cp1257", "Uosto komisijos protokolai pernai buvo perkelti į miesto archyvą. Archyvaras "
                             "peržiūrėjo kiekvieną knygą ir nustatė, kad trūksta kelių puslapių."),
    ("Latvian", "cp1257", "Ostas komisijas protokoli pagājušajā gadā tika pārvesti uz pilsētas arhīvu. "
                          "Arhivārs pārskatīja katru grāmatu un konstatēja, ka trūkst dažu lappušu."),
    ("Turkish", "cp1254", "Liman komisyonunun tutanakları geçen yıl şehir arşivine taşındı. Arşivci her "
                          "cildi inceledi ve birkaç sayfanın eksik olduğunu gördü."),
    ("Russian", "cp1251", "Протоколы портовой комиссии в прошлом году перевезли в городской архив. Архивист "
                          "проверил каждую книгу."),
    ("Greek", "cp1253", "Τα πρακτικά της λιμενικής επιτροπής μεταφέρθηκαν πέρυσι στο δημοτικό αρχείο. Ο "
                        "αρχειονόμος εξέτασε κάθε τόμο."),
]


@pytest.mark.parametrize("language,page,text", NOTES, ids=[n[0] for n in NOTES])
def test_a_note_in_its_code_page_reads_as_written(one, language, page, text):
    doc = one("note.txt", text.encode(page))
    assert (doc.status, doc.text) == ("ok", text)


@pytest.mark.parametrize("language,page,text", NOTES[:11], ids=[n[0] for n in NOTES[:11]])
def test_a_long_note_reads_as_written(one, language, page, text):
    # longer texts are where the statistical guess alone went wrong for French (cp1257)
    text = " ".join([text] * 4)
    doc = one("long.txt", text.encode(page))
    assert doc.text == text


@pytest.mark.parametrize("language,page,text", NOTES[3:6], ids=[n[0] for n in NOTES[3:6]])
def test_a_web_page_without_a_declared_charset_reads_as_written(one, language, page, text):
    page_bytes = f"<html><head><title>Note</title></head><body><p>{text}</p></body></html>".encode(page)
    doc = one("note.html", page_bytes)
    assert text in doc.text


def test_the_letters_of_one_language_fit_and_a_wrong_page_does_not():
    assert letter_fit("Protokoły komisji w zeszłym roku") == 1.0
    # the same bytes read as cp1252: "³" joined to letters, which no alphabet holds
    assert letter_fit("Protoko³y komisji w zesz³ym roku") == 0.0
    # French read as cp1257: three "é" (French) and one "ą" (Lithuanian) in one text
    assert letter_fit("conservés ą la mairie, vérifié") == pytest.approx(3 / 4)
    assert letter_fit("plain ASCII words") == 1.0


def test_ties_go_to_the_western_page():
    # "déjà" reads the same in cp1252 and cp1250 except for one byte: à (cp1252) against
    # ŕ (cp1250, Slovak); both fit a language, so the archival prior decides
    page, text = best_page("déjà vu".encode("cp1252"), "cp1250")
    assert (page, text) == ("cp1252", "déjà vu")


def test_old_mac_line_ends_make_lines(one):
    doc = one("mac.txt", "First paragraph of the note.\rSecond paragraph.\r\rThird, after a blank line.\r".encode("mac_roman"))
    assert doc.text == "First paragraph of the note.\nSecond paragraph.\n\nThird, after a blank line.\n"
    doc = one("dos.txt", b"One line.\r\nAnother line.\r\n")
    assert doc.text == "One line.\nAnother line.\n"


def test_an_rtf_in_the_mac_character_set(one):
    # "\\mac" in the header and no \\ansicpg: the escapes are Mac Roman bytes (0x8e is "é")
    rtf = rb"{\rtf1\mac\deff0{\fonttbl{\f0 Times;}}\f0 Saint-\'83tienne, conserv\'8es \'88 la mairie.\par}"
    doc = one("mac.rtf", rtf)
    assert doc.text == "Saint-Étienne, conservés à la mairie."


# Notes saved on the office machines before Windows: classic Mac OS and DOS. Read in a
# Windows page they came out "Mźller", "rāunion Ö l'āglise" and paired with nothing.
OLDER = [
    ("German, Mac", "mac_roman", "Sehr geehrter Herr Müller, die Protokolle der Hafenbehörde wurden im Frühjahr "
                                 "geprüft – größere Schäden fanden sich nur in den Bänden über die Zölle."),
    ("French, Mac", "mac_roman", "Les registres du port ont été conservés à la mairie depuis 1792; le conservateur "
                                 "a déjà vérifié chaque page."),
    ("French, DOS", "cp850", "Procès-verbal de la réunion du conseil paroissial tenue à l'église Saint-Étienne le 3 "
                             "février 1962. Présents: MM. Müller et Bélanger."),
    ("German, DOS", "cp437", "Die Protokolle der Hafenbehörde wurden im Frühjahr geprüft. Größere Schäden fanden "
                             "sich nur in den Bänden über die Zölle."),
]


@pytest.mark.parametrize("language,page,text", OLDER, ids=[n[0] for n in OLDER])
def test_a_note_from_a_mac_or_dos_machine_reads_as_written(one, language, page, text):
    doc = one("note.txt", text.encode(page))
    assert (doc.status, doc.text) == ("ok", text)
