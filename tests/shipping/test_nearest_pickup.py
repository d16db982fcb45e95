"""shipping.quote.nearest_pickup: which pickup point of an option is `selected` (pure)."""

from shipping.quote import PickupPoint, nearest_pickup

SAO_PAULO = (-23.557, -46.66)
RIO = (-22.91, -43.17)


def point(id: int, zip_code: str = "", coordinates=None) -> PickupPoint:
    lat, lon = coordinates or (None, None)
    return PickupPoint(id=id, zip_code=zip_code, latitude=lat, longitude=lon)


def test_no_points_select_nothing():
    assert nearest_pickup([], target_zipcode="20040002") is None


def test_coordinates_rank_by_great_circle_distance():
    points = [point(1, "01304001", SAO_PAULO), point(2, "20031000", RIO)]

    assert nearest_pickup(points, target_zipcode="01310100", target_latitude=-23.56,
                          target_longitude=-46.65) == 1  # fmt: skip
    assert nearest_pickup(points, target_zipcode="01310100", target_latitude=-22.9,
                          target_longitude=-43.2) == 2  # fmt: skip


def test_points_with_coordinates_come_before_postal_code_guesses():
    points = [point(1, "20040002"), point(2, "01304001", SAO_PAULO)]

    chosen = nearest_pickup(
        points, target_zipcode="20040002", target_latitude=-22.9, target_longitude=-43.2
    )

    assert chosen == 2


def test_without_target_coordinates_the_numerically_nearest_postal_code_wins():
    points = [point(1, "01304001", SAO_PAULO), point(2, "20031000", RIO), point(3, "29000000")]

    assert nearest_pickup(points, target_zipcode="20040002") == 2


def test_codes_of_another_length_or_with_letters_come_last_and_ties_keep_the_order():
    points = [point(1, "SW1A1AA"), point(2, "90210"), point(3, "30000000"), point(4, "10000000")]

    # 30000000 and 10000000 are both 10,000,000 away from 20000000: the first listed wins
    assert nearest_pickup(points, target_zipcode="20000000") == 3
    assert nearest_pickup(points[:2], target_zipcode="20000000") == 1
